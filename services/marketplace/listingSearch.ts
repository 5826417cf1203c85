import type { Currency } from '../../models/EconomyAccount';
import type { MarketListingRecord } from '../../models/MarketListing';
import { ValidationError } from '../../platform/errors';
import { findListing } from './listings';
import type { MarketCore } from './marketCore';

/** Result orders: `relevance` (semantic similarity; newest first for keyword search), price either way, newest. */
export const SORTS = ['relevance', 'price_asc', 'price_desc', 'newest'] as const;
export type ListingSort = (typeof SORTS)[number];

/** A search request (GET /marketplace/search). */
export interface ListingQuery {
  q?: string;
  semantic: boolean;
  currency?: Currency;
  minPrice?: number;
  maxPrice?: number;
  category?: string;
  seller?: string;
  sort: ListingSort;
  limit: number;
  cursor?: string;
}

/** One page of listings, with the similarity score for semantic results, and the next page's cursor. */
export interface ListingPage {
  results: Array<{ listing: MarketListingRecord; score: number | null }>;
  nextCursor: string | null;
}

/** How many nearest listings a semantic search considers before paging (and before a price or date sort). */
const SEMANTIC_POOL = 200;

/**
 * Searches active listings. Semantic (the default, when `q` is given): `q` is embedded through the brain's
 * embedding chain and the nearest listing vectors are found in Qdrant with the filters applied there; results keep
 * only listings still active. Keyword (`semantic=false`): every word of `q` must appear in the title or the
 * description (case-insensitive). Both honour currency, price range, category and seller, sort, and an opaque cursor.
 */
export async function searchListings(core: MarketCore, query: ListingQuery): Promise<ListingPage> {
  const offset = decodeCursor(query.cursor);
  if (query.semantic && query.q) {
    const hits = await core.vectors.search(query.q, vectorFilters(query), SEMANTIC_POOL);
    const found = await core.listings
      .find({ _id: { $in: hits.map((hit) => hit.id) }, state: 'active' })
      .lean<MarketListingRecord[]>();
    const byId = new Map(found.map((listing) => [listing._id.toHexString(), listing]));
    const ranked = hits.flatMap((hit) => {
      const listing = byId.get(hit.id);
      return listing ? [{ listing, score: hit.score }] : [];
    });
    if (query.sort !== 'relevance') ranked.sort((a, b) => compare(query.sort, a.listing, b.listing));
    return page(ranked, offset, query.limit);
  }
  const rows = await core.listings
    .find(keywordFilter(query))
    .sort(mongoSort(query.sort))
    .skip(offset)
    .limit(query.limit + 1)
    .lean<MarketListingRecord[]>();
  const results = rows.slice(0, query.limit).map((listing) => ({ listing, score: null }));
  return { results, nextCursor: rows.length > query.limit ? encodeCursor(offset + query.limit) : null };
}

/** The active listings nearest to listing `id` by vector (404 LISTING_NOT_FOUND). */
export async function similarListings(core: MarketCore, id: string, limit: number): Promise<ListingPage> {
  await findListing(core, id);
  const hits = await core.vectors.similar(id, limit * 2);
  const found = await core.listings
    .find({ _id: { $in: hits.map((hit) => hit.id) }, state: 'active' })
    .lean<MarketListingRecord[]>();
  const byId = new Map(found.map((listing) => [listing._id.toHexString(), listing]));
  const results = hits.flatMap((hit) => {
    const listing = byId.get(hit.id);
    return listing ? [{ listing, score: hit.score }] : [];
  });
  return { results: results.slice(0, limit), nextCursor: null };
}

function vectorFilters(query: ListingQuery) {
  return {
    currency: query.currency,
    category: query.category,
    seller: query.seller,
    minPrice: query.minPrice,
    maxPrice: query.maxPrice,
  };
}

function keywordFilter(query: ListingQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { state: 'active' };
  if (query.currency) filter['price.currency'] = query.currency;
  if (query.category) filter.category = query.category;
  if (query.seller) filter.seller = query.seller;
  if (query.minPrice !== undefined || query.maxPrice !== undefined)
    filter['price.amount'] = {
      ...(query.minPrice !== undefined ? { $gte: query.minPrice } : {}),
      ...(query.maxPrice !== undefined ? { $lte: query.maxPrice } : {}),
    };
  const words = (query.q ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length > 0)
    filter.$and = words.map((word) => {
      const pattern = new RegExp(escapeRegex(word), 'i');
      return { $or: [{ title: pattern }, { description: pattern }] };
    });
  return filter;
}

function mongoSort(sort: ListingSort): Record<string, 1 | -1> {
  if (sort === 'price_asc') return { 'price.amount': 1, _id: 1 };
  if (sort === 'price_desc') return { 'price.amount': -1, _id: -1 };
  return { _id: -1 };
}

function compare(sort: ListingSort, a: MarketListingRecord, b: MarketListingRecord): number {
  if (sort === 'price_asc') return a.price.amount - b.price.amount;
  if (sort === 'price_desc') return b.price.amount - a.price.amount;
  return b._id.toHexString().localeCompare(a._id.toHexString());
}

function page<T>(ranked: T[], offset: number, limit: number) {
  return {
    results: ranked.slice(offset, offset + limit),
    nextCursor: ranked.length > offset + limit ? encodeCursor(offset + limit) : null,
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An opaque cursor: the offset of the next page. */
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o: unknown };
    if (Number.isInteger(o) && (o as number) >= 0) return o as number;
  } catch {
    // Reported below as a bad cursor.
  }
  throw new ValidationError('cursor is not one this API returned', [
    { path: 'query.cursor', message: 'invalid' },
  ]);
}
