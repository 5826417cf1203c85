import type { z } from 'zod';
import type { MarketplaceArea } from '../../marketplace';
import { cancelListing, createListing, findListing, type ListingInput } from '../../marketplace/listings';
import { searchListings, similarListings, type ListingQuery } from '../../marketplace/listingSearch';
import { presentListing, presentResults, presentSale } from '../../marketplace/presenters';
import { buyListing } from '../../marketplace/purchases';
import type { ListingSchema, SaleSchema, SearchResultSchema } from '../../marketplace/schemas';

type Listing = z.infer<typeof ListingSchema>;
type Results = z.infer<typeof SearchResultSchema>;

/**
 * What the marketplace worker calls: the marketplace's commands, presented exactly as its REST routes answer.
 * `services/marketplace/index.ts` exports no service interface yet (only the area and its core), so this is the one
 * file of the gateway that reaches into the marketplace's modules; when the area exports a `MarketplaceService` with
 * these methods, pass that instead and delete this file.
 */
export interface MarketplaceCalls {
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

/** The marketplace's commands over its core (MarketplaceArea.core), as the routes call them. */
export function marketplaceCalls(core: MarketplaceArea['core']): MarketplaceCalls {
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
