import type { MarketListingRecord } from '../../models/MarketListing';
import type { MarketListingView, WorldMarket } from '../../rooms/rules/marketTrades';
import { cancelListing, createListing, findListing } from './listings';
import { searchListings } from './listingSearch';
import type { MarketCore } from './marketCore';
import { buyListing } from './purchases';

/**
 * The marketplace as the world's broker NPCs reach it (`trade` in a room): the same commands as the HTTP routes,
 * so a listing made in the world is on `/marketplace/search` and one bought over REST disappears from the broker's
 * ledger. A purchase from the world is idempotent per buyer and listing (`worldKey`), so a repeated command never
 * pays twice.
 */
export function worldMarket(core: MarketCore): WorldMarket {
  return {
    list: async (userId, input) => view((await createListing(core, { seller: userId, ...input })).listing),
    browse: async (query, limit) => {
      const page = await searchListings(core, {
        q: query,
        semantic: query !== undefined,
        sort: query === undefined ? 'newest' : 'relevance',
        limit,
      });
      return page.results.map((result) => view(result.listing));
    },
    mine: async (userId, limit) => {
      const page = await searchListings(core, { seller: userId, semantic: false, sort: 'newest', limit });
      return page.results.map((result) => view(result.listing));
    },
    buy: async (userId, listingId) => {
      const { sale } = await buyListing(core, listingId, userId, await worldKey(core, userId, listingId));
      return { listing: view(await findListing(core, listingId)), fee: sale.fee };
    },
    cancel: async (userId, listingId) => view(await cancelListing(core, listingId, userId)),
  };
}

/**
 * The key of a purchase from the world: `world:<listing id>`, so a repeated command replays instead of paying twice;
 * after N refusals (stored under their keys for good) `world:<listing id>:N`, so a player refused once (sold to
 * somebody whose payment then failed, short of coins) can try again when the listing is back or their purse is full.
 */
async function worldKey(core: MarketCore, userId: string, listingId: string): Promise<string> {
  const base = `world:${listingId}`;
  const escaped = `sale:${userId}:${base}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const refused = await core.sales.countDocuments({
    _id: { $regex: `^${escaped}(:\\d+)?$` },
    state: 'failed',
  });
  return refused === 0 ? base : `${base}:${refused}`;
}

function view(listing: MarketListingRecord): MarketListingView {
  return {
    id: listing._id.toHexString(),
    title: listing.title,
    qty: listing.qty,
    price: listing.price.amount,
    currency: listing.price.currency,
  };
}
