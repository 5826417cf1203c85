import { z } from 'zod';
import { IdempotencyKeySchema } from '../../platform/http/idempotencyKey';
import { AmountSchema, CurrencySchema } from '../economy';
import { SORTS } from './listingSearch';

const objectId = z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex-digit id');
const decimal = z.string().meta({ description: 'Integer in the smallest unit, as a decimal string' });

export const ListingParamsSchema = z.object({ id: objectId });

export const CreateListingSchema = z
  .object({
    item: z.string().trim().min(1).max(200).meta({
      description:
        'A world item ref from your inventory (`village:bread`) or creator content (`content:<slug>`)',
    }),
    qty: z.number().int().min(1).max(1_000_000).default(1),
    price: z.object({ currency: CurrencySchema, amount: AmountSchema }),
    title: z.string().trim().min(1).max(120).optional(),
    description: z.string().trim().max(2000).optional(),
    category: z.string().trim().min(1).max(40).optional(),
    idempotency_key: IdempotencyKeySchema.optional().meta({
      description:
        'Makes retries safe: the same key answers the first listing (Idempotent-Replayed: true) and never takes the ' +
        'item twice; the key with another body is 409 IDEMPOTENCY_CONFLICT. Also accepted as the Idempotency-Key header.',
    }),
  })
  .meta({ id: 'MarketplaceListingRequest' });
export type CreateListingRequest = z.infer<typeof CreateListingSchema>;

export const ListingSchema = z
  .object({
    id: z.string(),
    seller_id: z.string(),
    source: z.enum(['inventory', 'content']),
    item: z.string(),
    qty: z.number().int(),
    price: z.object({ currency: CurrencySchema, amount: decimal }),
    title: z.string(),
    description: z.string(),
    category: z.string(),
    state: z.enum(['escrowing', 'active', 'sold', 'cancelled']),
    search_indexed: z.boolean().meta({
      description:
        'Whether semantic search (and similar) can find this listing: true once an active listing is in the vector ' +
        'index. An active listing with false is for sale and found by keyword search, but its vector could not be ' +
        'stored yet (no embedding provider answered, or the vector store failed); the recovery job retries it 30 s ' +
        'after each attempt. Always false once sold or cancelled.',
    }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'MarketplaceListing' });

export const BuyRequestSchema = z
  .object({ idempotency_key: IdempotencyKeySchema })
  .meta({ id: 'MarketplaceBuyRequest' });

export const SaleSchema = z
  .object({
    sale_id: z.string(),
    listing_id: z.string(),
    buyer_id: z.string(),
    seller_id: z.string(),
    item: z.string(),
    qty: z.number().int(),
    price: z.object({ currency: CurrencySchema, amount: decimal }),
    fee: decimal.meta({ description: "The platform's 5% (rounded down)" }),
    seller_received: decimal,
    state: z.enum(['pending', 'paid', 'delivered']),
  })
  .meta({ id: 'MarketplaceSale' });

const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');

export const SearchQuerySchema = z.object({
  q: z.string().trim().max(500).optional(),
  semantic: booleanParam.default(true),
  currency: CurrencySchema.optional(),
  min_price: z.coerce.number().int().min(0).optional(),
  max_price: z.coerce.number().int().min(0).optional(),
  category: z.string().trim().max(40).optional(),
  seller: objectId.optional(),
  sort: z.enum(SORTS).default('relevance'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export const SimilarQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });

export const SearchResultSchema = z
  .object({
    results: z.array(z.object({ listing: ListingSchema, score: z.number().nullable() })),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'MarketplaceSearchResult' });
