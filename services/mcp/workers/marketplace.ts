import { z } from 'zod';
import { IdempotencyKeySchema } from '../../../platform/http/idempotencyKey';
import { UnauthorizedError } from '../../../platform/errors';
import type { Principal } from '../../../access/principal';
import { AmountSchema, CurrencySchema } from '../../economy';
import { SORTS } from '../../marketplace';
import { ListingSchema, SaleSchema, SearchResultSchema } from '../../marketplace';
import { ACCESS, ACTS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import type { MarketplaceService } from '../../marketplace';

const listingId = z
  .string()
  .regex(/^[0-9a-f]{24}$/, { error: 'expected a listing id (24 hex digits)' })
  .meta({ description: 'A listing id (from marketplace_search)' });

const SearchInput = z.strictObject({
  q: z.string().trim().max(500).optional().meta({ description: 'What you look for, in plain words' }),
  semantic: z.boolean().default(true).meta({
    description: 'true (default): by meaning; false: every word must appear in title or description',
  }),
  currency: CurrencySchema.optional(),
  min_price: z.number().int().min(0).optional().meta({ description: 'Lowest price, smallest unit' }),
  max_price: z.number().int().min(0).optional().meta({ description: 'Highest price, smallest unit' }),
  category: z.string().trim().max(40).optional().meta({ description: 'weapon, armor, food, content, …' }),
  seller: z
    .string()
    .regex(/^[0-9a-f]{24}$/, { error: 'expected a user id' })
    .optional(),
  sort: z.enum(SORTS).default('relevance'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .meta({ description: 'Listings per page (1-100, default 20)' }),
  cursor: z.string().max(200).optional().meta({ description: 'next_cursor of the previous page' }),
});

const CreateInput = z.strictObject({
  item: z.string().trim().min(1).max(200).meta({
    description:
      'A world item ref your character holds (`village:bread`) or creator content (`content:<slug>`)',
  }),
  qty: z.number().int().min(1).max(1_000_000).default(1),
  price: z.strictObject({ currency: CurrencySchema, amount: AmountSchema }),
  title: z.string().trim().min(1).max(120).optional(),
  description: z.string().trim().max(2000).optional(),
  category: z.string().trim().min(1).max(40).optional(),
  idempotency_key: IdempotencyKeySchema.optional().meta({
    description:
      'Recommended: a new key per intended listing; a retry with the same key returns the first listing instead of ' +
      'listing the item twice',
  }),
});

const BuyInput = z.strictObject({
  listing_id: listingId,
  idempotency_key: IdempotencyKeySchema.meta({
    description:
      'Required. A new key per intended purchase; retrying with the same key returns the first sale and never ' +
      'pays twice',
  }),
});

/** The caller's user id (these tools act for a signed-in user; ACCESS.player keeps the service token out). */
function callerId(caller: Principal): string {
  if (caller.kind !== 'user') throw new UnauthorizedError('Sign in first');
  return caller.userId.toHexString();
}

const summariseResults = (page: z.output<typeof SearchResultSchema>) =>
  page.results.length === 0
    ? 'No listings found.'
    : `${page.results.length} listings:\n` +
      page.results
        .slice(0, 5)
        .map(
          ({ listing }, index) =>
            `${index + 1}. ${listing.title} — ${listing.price.amount} ${listing.price.currency} (${listing.id})`,
        )
        .join('\n') +
      (page.next_cursor ? '\nMore with next_cursor.' : '');

const summariseListing = (listing: z.output<typeof ListingSchema>) =>
  `${listing.title} (${listing.item} ×${listing.qty}) for ${listing.price.amount} ${listing.price.currency}: ` +
  `${listing.state}, listing ${listing.id}.`;

/**
 * The marketplace worker: search and read listings (anyone, the service token included), and list, cancel and buy
 * as the caller, with the routes' access (listing and buying need identity tier 1; cancelling one's own listing does
 * not). Money moves only through the economy, inside the marketplace's own purchase saga.
 */
export function marketplaceWorker(market: MarketplaceService): Worker {
  return {
    name: 'marketplace',
    description: 'Items and creator content for sale: search by meaning, read, list your own, buy.',
    stores: ['mongo', 'qdrant'],
    tools: [
      defineTool({
        name: 'marketplace_search',
        title: 'Search the marketplace',
        description:
          'Active listings matching plain words by meaning (semantic, the default) or by keywords, with price, ' +
          'currency, category and seller filters, sorted by relevance, price or newest. Returns listings with ' +
          'their id, item, price and similarity score.',
        input: SearchInput,
        output: SearchResultSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: (input) =>
          market.search({
            q: input.q,
            semantic: input.semantic,
            currency: input.currency,
            minPrice: input.min_price,
            maxPrice: input.max_price,
            category: input.category,
            seller: input.seller,
            sort: input.sort,
            limit: input.limit,
            cursor: input.cursor,
          }),
        summarise: summariseResults,
      }),
      defineTool({
        name: 'marketplace_listing',
        title: 'Read a listing',
        description: 'One listing by id: seller, item, quantity, price, description and state.',
        input: z.strictObject({ listing_id: listingId }),
        output: ListingSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: (input) => market.listing(input.listing_id),
        summarise: summariseListing,
      }),
      defineTool({
        name: 'marketplace_similar',
        title: 'Listings like this one',
        description:
          'The active listings nearest to a listing by meaning (its stored vector), nearest first.',
        input: z.strictObject({
          listing_id: listingId,
          limit: z.number().int().min(1).max(50).default(10),
        }),
        output: SearchResultSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: (input) => market.similar(input.listing_id, input.limit),
        summarise: summariseResults,
      }),
      defineTool({
        name: 'marketplace_list_item',
        title: 'Sell an item',
        description:
          'Lists an item from your character’s inventory (it leaves the inventory into escrow at once) or your ' +
          'creator content, for soft or hard currency. A sale pays you 95%. Refusals: ITEM_NOT_IN_INVENTORY, ' +
          'UNKNOWN_ITEM, COMPANION_NOT_PURCHASABLE, IDEMPOTENCY_CONFLICT. Cancel with marketplace_cancel. Needs ' +
          'identity tier 1 (guests play but move nothing out).',
        input: CreateInput,
        output: ListingSchema,
        annotations: ACTS,
        access: ACCESS.registeredPlayer,
        callsPerMinute: 30,
        handler: async ({ idempotency_key: key, ...input }, { caller }) =>
          (await market.create({ ...input, seller: callerId(caller) }, key)).listing,
        summarise: (listing) => `Listed: ${summariseListing(listing)}`,
      }),
      defineTool({
        name: 'marketplace_cancel',
        title: 'Cancel my listing',
        description:
          'Cancels one of your active listings; an escrowed item returns to your inventory. Refusals: ' +
          'NOT_LISTING_SELLER, LISTING_NOT_ACTIVE (already sold or cancelled).',
        input: z.strictObject({ listing_id: listingId }),
        output: ListingSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
        access: ACCESS.player,
        handler: (input, { caller }) => market.cancel(input.listing_id, callerId(caller)),
        summarise: (listing) => `Cancelled: ${summariseListing(listing)}`,
      }),
      defineTool({
        name: 'marketplace_buy',
        title: 'Buy a listing',
        description:
          'Buys a whole listing: you pay its price, the seller gets 95%, the item comes to your inventory. Cannot ' +
          'be undone. Idempotent per idempotency_key. Refusals: INSUFFICIENT_FUNDS, LISTING_SOLD, ' +
          'LISTING_NOT_ACTIVE, CANNOT_BUY_OWN_LISTING, IDEMPOTENCY_CONFLICT. Check economy_wallet first. Needs ' +
          'identity tier 1.',
        input: BuyInput,
        output: SaleSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.registeredPlayer,
        callsPerMinute: 30,
        cost: 5,
        confirm: async (input) => {
          const { price, item, qty } = await market.listing(input.listing_id);
          return `Buy ${item} ×${qty} for ${price.amount} ${price.currency}? This cannot be undone.`;
        },
        handler: async (input, { caller }) =>
          (await market.buy(input.listing_id, callerId(caller), input.idempotency_key)).sale,
        summarise: (sale) =>
          `Bought ${sale.item} ×${sale.qty} for ${sale.price.amount} ${sale.price.currency} (sale ${sale.sale_id}, ` +
          `${sale.state}).`,
      }),
    ],
  };
}
