import type { z } from 'zod';
import { cancelListing, createListing, findListing, type ListingInput } from './listings';
import { searchListings, similarListings, type ListingQuery } from './listingSearch';
import type { MarketCore } from './marketCore';
import { presentListing, presentResults, presentSale } from './presenters';
import { buyListing } from './purchases';
import type { ListingSchema, SaleSchema, SearchResultSchema } from './schemas';

type Listing = z.infer<typeof ListingSchema>;
type Results = z.infer<typeof SearchResultSchema>;

/**
 * The marketplace as other areas call it (the MCP gateway): the same commands as the REST routes, presented exactly
 * as the routes answer. Every method throws the routes' errors.
 */
export interface MarketplaceService {
  search(query: ListingQuery): Promise<Results>;
  listing(id: string): Promise<Listing>;
  similar(id: string, limit: number): Promise<Results>;
  create(input: ListingInput, idempotencyKey?: string): Promise<{ listing: Listing; replayed: boolean }>;
  cancel(id: string, seller: string): Promise<Listing>;
  buy(
    id: string,
    buyer: string,
    idempotencyKey: string,
  ): Promise<{ sale: z.infer<typeof SaleSchema>; replayed: boolean }>;
}

/** The service interface over the marketplace's core. */
export function marketplaceService(core: MarketCore): MarketplaceService {
  return {
    search: async (query) => presentResults(await searchListings(core, query)),
    listing: async (id) => presentListing(await findListing(core, id)),
    similar: async (id, limit) => presentResults(await similarListings(core, id, limit)),
    create: async (input, key) => {
      const { listing, replayed } = await createListing(core, input, key);
      return { listing: presentListing(listing), replayed };
    },
    cancel: async (id, seller) => presentListing(await cancelListing(core, id, seller)),
    buy: async (id, buyer, key) => {
      const { sale, replayed } = await buyListing(core, id, buyer, key);
      return { sale: presentSale(sale), replayed };
    },
  };
}
