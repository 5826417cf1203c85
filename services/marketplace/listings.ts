import { Types } from 'mongoose';
import { idempotencyConflict } from '../economy';
import { findById, nativeCollection } from '../../platform/stores/nativeCollection';
import { hashRequest } from '../economy';
import type { Currency } from '../../models/EconomyAccount';
import type { MarketListingRecord } from '../../models/MarketListing';
import {
  companionNotPurchasable,
  listingBusy,
  listingNotActive,
  listingNotFound,
  notListingSeller,
  unknownItem,
} from './errors';
import { indexListing } from './listingIndexing';
import type { MarketCore } from './marketCore';

/** What a seller lists. */
export interface ListingInput {
  seller: string;
  item: string;
  qty: number;
  price: { currency: Currency; amount: number };
  title?: string;
  description?: string;
  category?: string;
}

const CONTENT = /^content:[a-z0-9][a-z0-9-]{0,79}$/;

/** The escrow claim id of a listing, and of the return of its item. */
export const escrowClaim = (id: string) => `listing:${id}:escrow`;
export const returnClaim = (id: string) => `listing:${id}:return`;

const DUPLICATE_KEY = 11000;

/**
 * Lists an item out of the seller's character inventory (taken into escrow: it leaves the inventory at once, out of
 * the live player when they are in a room; 409 ITEM_NOT_IN_INVENTORY when it is not there) or a creator's content
 * (`content:<slug>`, no escrow). Companions are refused (409 COMPANION_NOT_PURCHASABLE). The listing is written
 * `escrowing` first, so a crash before it is `active` is finished by the recovery job (the escrow claim is
 * idempotent). With an idempotency `key`, a retry answers the first listing (`replayed`) and the key with another
 * body is 409 IDEMPOTENCY_CONFLICT.
 */
export async function createListing(
  core: MarketCore,
  input: ListingInput,
  key?: string,
): Promise<{ listing: MarketListingRecord; replayed: boolean }> {
  const source = sourceOf(core, input.item);
  const request = key ? { requestKey: `${input.seller}:${key}`, requestHash: hashRequest(input) } : {};
  if (request.requestKey) {
    const earlier = await core.listings
      .findOne({ requestKey: request.requestKey })
      .lean<MarketListingRecord>();
    if (earlier) return { listing: await replayListing(core, earlier, request.requestHash), replayed: true };
  }
  const template = core.world.items.get(input.item);
  const created = await core.listings
    .create({
      ...request,
      seller: input.seller,
      source,
      item: input.item,
      qty: input.qty,
      price: input.price,
      title: input.title ?? template?.name ?? input.item,
      description: input.description ?? template?.description ?? '',
      category: input.category ?? template?.kind ?? 'content',
      state: source === 'inventory' ? 'escrowing' : 'active',
    })
    .catch((error: { code?: number }) => {
      if (error.code === DUPLICATE_KEY && request.requestKey) return undefined;
      throw error;
    });
  if (!created) {
    // A concurrent retry with the same key created it first.
    const first = await core.listings.findOne({ requestKey: request.requestKey }).lean<MarketListingRecord>();
    if (!first) throw listingBusy();
    return { listing: await replayListing(core, first, request.requestHash), replayed: true };
  }
  const listing = created.toObject<MarketListingRecord>();
  return {
    listing: source === 'inventory' ? await completeEscrow(core, listing) : await indexListing(core, listing),
    replayed: false,
  };
}

/** The listing an earlier request with the same key created (its escrow finished if it was interrupted). */
async function replayListing(
  core: MarketCore,
  earlier: MarketListingRecord,
  requestHash: string | undefined,
): Promise<MarketListingRecord> {
  if (earlier.requestHash !== requestHash) throw idempotencyConflict(earlier.requestKey ?? '');
  return earlier.state === 'escrowing' ? completeEscrow(core, earlier) : earlier;
}

/** Takes an escrowing listing's item from the seller and activates it, or cancels it when the item is gone. */
export async function completeEscrow(
  core: MarketCore,
  listing: MarketListingRecord,
): Promise<MarketListingRecord> {
  const id = listing._id.toHexString();
  try {
    await core.items.take(listing.seller, escrowClaim(id), listing.item, listing.qty);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ITEM_NOT_IN_INVENTORY') throw error;
    await core.listings.updateOne(
      { _id: listing._id, state: 'escrowing' },
      { $set: { state: 'cancelled', returned: true } },
    );
    throw error;
  }
  await core.listings.updateOne({ _id: listing._id, state: 'escrowing' }, { $set: { state: 'active' } });
  return indexListing(core, await findListing(core, id));
}

/** Cancels the seller's active listing and returns its item (403 NOT_LISTING_SELLER, 409 LISTING_*). */
export async function cancelListing(
  core: MarketCore,
  id: string,
  seller: string,
): Promise<MarketListingRecord> {
  const listing = await findListing(core, id);
  if (listing.seller !== seller) throw notListingSeller();
  const cancelled = await core.listings.updateOne(
    { _id: listing._id, state: 'active' },
    { $set: { state: 'cancelled' } },
  );
  if (cancelled.modifiedCount === 0) {
    const now = await findListing(core, id);
    if (now.state !== 'cancelled') throw listingNotActive(id, now.state === 'sold' ? 'sold' : now.state);
  }
  await core.vectors.remove([id]);
  await core.listings.updateOne({ _id: listing._id }, { $set: { indexed: false } });
  return returnItem(core, await findListing(core, id));
}

/** Gives a cancelled inventory listing's item back to the seller (idempotent per listing). */
export async function returnItem(
  core: MarketCore,
  listing: MarketListingRecord,
): Promise<MarketListingRecord> {
  if (listing.state !== 'cancelled' || listing.returned) return listing;
  const id = listing._id.toHexString();
  if (listing.source === 'inventory')
    await core.items.give(listing.seller, returnClaim(id), listing.item, listing.qty);
  await core.listings.updateOne({ _id: listing._id }, { $set: { returned: true } });
  return { ...listing, returned: true };
}

/** The listing `id` (404 LISTING_NOT_FOUND). */
export async function findListing(core: MarketCore, id: string): Promise<MarketListingRecord> {
  const listing = Types.ObjectId.isValid(id)
    ? await findById(nativeCollection(core.listings), new Types.ObjectId(id))
    : null;
  if (!listing) throw listingNotFound(id);
  return listing;
}

function sourceOf(core: MarketCore, item: string): 'inventory' | 'content' {
  if (core.world.companions.has(item) || item.startsWith('companion:')) throw companionNotPurchasable(item);
  if (core.world.items.has(item)) return 'inventory';
  if (CONTENT.test(item)) return 'content';
  throw unknownItem(item);
}
