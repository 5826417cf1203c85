import type { z } from 'zod';
import type { MarketListingRecord } from '../../models/MarketListing';
import type { MarketSaleRecord } from '../../models/MarketSale';
import type { ListingPage } from './listingSearch';
import type { ListingSchema, SaleSchema, SearchResultSchema } from './schemas';

/** A listing as the API shows it. */
export function presentListing(listing: MarketListingRecord): z.infer<typeof ListingSchema> {
  return {
    id: listing._id.toHexString(),
    seller_id: listing.seller,
    source: listing.source,
    item: listing.item,
    qty: listing.qty,
    price: { currency: listing.price.currency, amount: String(listing.price.amount) },
    title: listing.title,
    description: listing.description,
    category: listing.category,
    state: listing.state,
    search_indexed: listing.state === 'active' && listing.indexed,
    created_at: listing.createdAt.toISOString(),
  };
}

/** A purchase (the same body for the first call and every replay). */
export function presentSale(sale: MarketSaleRecord): z.infer<typeof SaleSchema> {
  return {
    sale_id: sale._id,
    listing_id: sale.listing,
    buyer_id: sale.buyer,
    seller_id: sale.seller,
    item: sale.item,
    qty: sale.qty,
    price: { currency: sale.price.currency, amount: String(sale.price.amount) },
    fee: String(sale.fee),
    seller_received: String(sale.price.amount - sale.fee),
    state: sale.state as 'pending' | 'paid' | 'delivered',
  };
}

/** A page of search or similar results. */
export function presentResults(page: ListingPage): z.infer<typeof SearchResultSchema> {
  return {
    results: page.results.map(({ listing, score }) => ({ listing: presentListing(listing), score })),
    next_cursor: page.nextCursor,
  };
}
