import { Types } from 'mongoose';
import type { MarketListingRecord } from '../../models/MarketListing';
import type { MarketSaleRecord } from '../../models/MarketSale';
import { AppError } from '../../platform/errors';
import { SYSTEM_ACCOUNTS, systemAccount, userAccount } from '../economy';
import { idempotencyConflict, replayedError } from '../economy';
import { insertOrFind, nativeCollection, setIfMatches } from '../../platform/stores/nativeCollection';
import { cannotBuyOwnListing, listingNotActive, listingSold } from './errors';
import { findListing } from './listings';
import type { MarketCore } from './marketCore';

/** A finished purchase and whether this call only replayed an earlier one. */
export interface PurchaseOutcome {
  sale: MarketSaleRecord;
  replayed: boolean;
}

/** The item claim that delivers a sale to its buyer. */
export const deliveryClaim = (saleId: string) => `sale:${saleId}:delivery`;

/**
 * Buys a listing as a saga without transactions; the sale document (id: buyer + idempotency key) records the step:
 *
 * 1. `pending`: the listing is reserved for this sale by one conditional update (`active` → `sold`), so of any
 *    number of concurrent buyers exactly one gets it; the others fail with 409 LISTING_SOLD having paid nothing;
 * 2. `paid`: one economy operation moves the price from the buyer to the seller (95%) and the fee account (5%);
 *    short funds (409 INSUFFICIENT_FUNDS) put the listing back on sale and fail the sale, nothing paid;
 * 3. `delivered`: the item goes into the buyer's inventory (content needs no delivery).
 *
 * Payment comes only after the listing is reserved for this sale and delivery cannot be refused, so no step after a
 * payment can fail for good and no refund is ever owed; `failed` sales never moved money. Every step is idempotent:
 * a retry with the same key, or the recovery job, continues an interrupted purchase from its state. A purchase
 * refused before it starts (the listing sold, not active, the buyer's own) is stored as a failed sale too, so the key
 * answers that refusal for good.
 */
export async function buyListing(
  core: MarketCore,
  listingId: string,
  buyer: string,
  idempotencyKey: string,
): Promise<PurchaseOutcome> {
  const id = `sale:${buyer}:${idempotencyKey}`;
  let listing: MarketListingRecord;
  try {
    listing = await findListing(core, listingId);
  } catch (error) {
    // No such listing: the key may still name an earlier purchase, of another listing (a conflict).
    const earlier = await core.sales.findById(id).lean<MarketSaleRecord>();
    if (earlier) throw idempotencyConflict(id);
    throw error;
  }
  // A refusal is this key's outcome too: it is stored (a failed sale) before it is answered, so a retry answers
  // the same refusal even if the listing is back on sale by then, and never turns into a purchase.
  const { sale, created } = await openSale(core, id, listing, buyer, refusalOf(listing, buyer));
  return { sale: throwIfFailed(await driveSale(core, sale, listing), !created), replayed: !created };
}

/** Why `buyer` cannot buy `listing` as it is now (their own, sold, not active), or undefined. */
function refusalOf(listing: MarketListingRecord, buyer: string): AppError | undefined {
  const id = listing._id.toHexString();
  if (listing.seller === buyer) return cannotBuyOwnListing();
  if (listing.state === 'sold') return listingSold(id);
  if (listing.state !== 'active') return listingNotActive(id, listing.state);
  return undefined;
}

/**
 * Writes the sale `pending`, or `failed` with `refusal` (or finds the sale the key already has: `created` false;
 * 409 IDEMPOTENCY_CONFLICT when it is another listing's).
 */
export async function openSale(
  core: MarketCore,
  id: string,
  listing: MarketListingRecord,
  buyer: string,
  refusal?: AppError,
): Promise<{ sale: MarketSaleRecord; created: boolean }> {
  const now = new Date(core.clock.now());
  const { stored: sale, created } = await insertOrFind(nativeCollection(core.sales), {
    _id: id,
    listing: listing._id.toHexString(),
    buyer,
    seller: listing.seller,
    item: listing.item,
    qty: listing.qty,
    price: { currency: listing.price.currency, amount: listing.price.amount },
    // The platform's fee (SPEC 1: 5%), rounded down: the seller (creator) receives the rest, at least 95%.
    fee: Math.floor((listing.price.amount * core.feePercent) / 100),
    ...(refusal ? { state: 'failed' as const, error: bodyOf(refusal) } : { state: 'pending' as const }),
    createdAt: now,
    updatedAt: now,
  });
  if (sale.listing !== listing._id.toHexString()) throw idempotencyConflict(id);
  return { sale, created };
}

/**
 * Runs a sale's remaining steps from its recorded state (the purchase itself, a retry, or the recovery job).
 * `listing`, when the caller has just read it, spares reading it again; a sale of content (nothing to deliver) goes
 * from `pending` straight to `delivered`.
 */
export async function driveSale(
  core: MarketCore,
  sale: MarketSaleRecord,
  listing?: MarketListingRecord,
): Promise<MarketSaleRecord> {
  let current = sale;
  if (current.state === 'pending') {
    const refused = await reserveAndPay(core, current);
    if (refused) return refused;
    const source = (listing ?? (await findListing(core, sale.listing))).source;
    if (source === 'inventory') current = await advanceSale(core, current, 'pending', { state: 'paid' });
    else return advanceSale(core, current, 'pending', { state: 'delivered' });
  }
  if (current.state === 'paid') {
    await saleSteps.deliver(core, current, listing);
    current = await advanceSale(core, current, 'paid', { state: 'delivered' });
  }
  return current;
}

/** The saga's steps, each idempotent; `driveSale` runs them in order (the crash tests stop between them). */
export const saleSteps = {
  /** Reserves the listing for the sale; answers the refusal when another sale has it or it is not for sale. */
  async reserve(core: MarketCore, sale: MarketSaleRecord): Promise<AppError | undefined> {
    const reserved = await setIfMatches(nativeCollection(core.listings), {
      filter: { _id: new Types.ObjectId(sale.listing), state: 'active' },
      set: { state: 'sold', saleId: sale._id, buyer: sale.buyer, updatedAt: new Date(core.clock.now()) },
    });
    if (reserved) return undefined;
    const listing = await findListing(core, sale.listing);
    if (listing.saleId === sale._id) return undefined;
    return listing.state === 'sold'
      ? listingSold(sale.listing)
      : listingNotActive(sale.listing, listing.state);
  },

  /** Moves the price: buyer → seller (95%) and fees (5%); answers INSUFFICIENT_FUNDS when nothing could move. */
  async charge(core: MarketCore, sale: MarketSaleRecord): Promise<AppError | undefined> {
    const { currency, amount } = sale.price;
    const fee =
      sale.fee > 0
        ? [
            {
              account: systemAccount(SYSTEM_ACCOUNTS.fees, currency, `purchase:${sale._id}`),
              currency,
              delta: sale.fee,
              kind: 'fee' as const,
              floor: 'none' as const,
            },
          ]
        : [];
    try {
      const { replayed } = await core.economy.run({
        id: `purchase:${sale._id}`,
        kind: 'purchase',
        ref: `listing:${sale.listing}`,
        request: { sale: sale._id, amount },
        legs: [
          {
            account: userAccount(sale.buyer),
            currency,
            delta: -amount,
            kind: 'purchase',
            floor: 'available',
          },
          {
            account: userAccount(sale.seller),
            currency,
            delta: amount - sale.fee,
            kind: 'sale',
            floor: 'none',
          },
          ...fee,
        ],
      });
      if (!replayed)
        core.economy.core.events.record({
          type: 'marketplace.sale',
          actor: userAccount(sale.buyer),
          operation: `purchase:${sale._id}`,
          currency,
          amount,
          detail: {
            listing: sale.listing,
            seller: sale.seller,
            item: sale.item,
            qty: sale.qty,
            fee: sale.fee,
          },
        });
      return undefined;
    } catch (error) {
      if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') return error;
      throw error;
    }
  },

  /** Puts an inventory listing's item into the buyer's inventory (content needs no delivery). */
  async deliver(core: MarketCore, sale: MarketSaleRecord, listing?: MarketListingRecord): Promise<void> {
    if ((listing ?? (await findListing(core, sale.listing))).source === 'inventory')
      await core.items.give(sale.buyer, deliveryClaim(sale._id), sale.item, sale.qty);
  },
};

/** Reserves and pays; answers the failed sale when either was refused (nothing paid), undefined when both went. */
async function reserveAndPay(
  core: MarketCore,
  sale: MarketSaleRecord,
): Promise<MarketSaleRecord | undefined> {
  const refused = (await saleSteps.reserve(core, sale)) ?? (await saleSteps.charge(core, sale));
  if (!refused) return undefined;
  // Nothing was paid: a listing reserved for this sale goes back on sale, and the sale fails with the reason.
  await core.listings.updateOne(
    { _id: sale.listing, saleId: sale._id },
    { $set: { state: 'active' }, $unset: { saleId: 1, buyer: 1 } },
  );
  return advanceSale(core, sale, 'pending', { state: 'failed', error: bodyOf(refused) });
}

/** Moves the sale from `from` to the new fields (the first mover wins) and answers the stored sale. */
export async function advanceSale(
  core: MarketCore,
  sale: MarketSaleRecord,
  from: MarketSaleRecord['state'],
  fields: Partial<MarketSaleRecord>,
): Promise<MarketSaleRecord> {
  const set = { ...fields, updatedAt: new Date(core.clock.now()) };
  const sales = nativeCollection(core.sales);
  const moved = await setIfMatches(sales, { filter: { _id: sale._id, state: from }, set });
  const stored = moved ? { ...sale, ...set } : await sales.findOne({ _id: sale._id });
  if (!stored) throw new Error(`sale ${sale._id} vanished`);
  return stored;
}

function bodyOf(error: AppError) {
  return { status: error.status, code: error.code, detail: error.detail ?? error.message };
}

/** A failed sale answers its stored refusal, the first time and on every replay (then `Idempotent-Replayed`). */
function throwIfFailed(sale: MarketSaleRecord, replayed: boolean): MarketSaleRecord {
  if (sale.state === 'failed' && sale.error) throw replayedError(sale.error, replayed);
  return sale;
}
