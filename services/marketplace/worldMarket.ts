import type { MarketListingRecord } from '../../models/MarketListing';
import type { MarketListingView, WorldMarket } from '../../rooms/systems/marketTrades';
import { cancelListing, createListing, findListing } from './listings';
import { searchListings } from './listingSearch';
import type { MarketCore } from './marketCore';
import { buyListing } from './purchases';

/**
 * The marketplace as the world's broker NPCs reach it (`trade` in a room): the same commands as the HTTP routes,
 * so a listing made in the world is on `/marketplace/search` and one bought over REST disappears from the broker's
 * ledger. A purchase from the world is idempotent per buyer and listing (`world:<listing id>`), so a repeated
 * command never pays twice.
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
      const { sale } = await buyListing(core, listingId, userId, `world:${listingId}`);
      return { listing: view(await findListing(core, listingId)), fee: sale.fee };
    },
    cancel: async (userId, listingId) => view(await cancelListing(core, listingId, userId)),
  };
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
