import type { Request } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import { type AuthGuard, userOf } from '../../access/authGuard';
import { idempotencyKeyOf, optionalIdempotencyKeyOf } from '../../platform/http/idempotencyKey';
import { replayHeaders } from '../economy';
import { cancelListing, createListing, findListing } from './listings';
import { searchListings, similarListings } from './listingSearch';
import type { MarketCore } from './marketCore';
import { presentListing, presentResults, presentSale } from './presenters';
import { buyListing } from './purchases';
import {
  BuyRequestSchema,
  CreateListingSchema,
  ListingParamsSchema,
  ListingSchema,
  SaleSchema,
  SearchQuerySchema,
  SearchResultSchema,
  SimilarQuerySchema,
} from './schemas';

const callerId = (req: Request) =>
  (userOf(req) as NonNullable<ReturnType<typeof userOf>>).userId.toHexString();

/** The marketplace routes (SPEC 4.6): listings, purchases, search and similar listings. */
export function registerMarketplaceRoutes(routes: ApiRoutes, core: MarketCore, guard: AuthGuard): void {
  routes.add({
    method: 'post',
    path: '/marketplace/listings',
    summary: 'List an inventory item (taken into escrow) or creator content for sale',
    tags: ['marketplace'],
    security: 'bearer',
    middleware: guard.requireTier(1),
    request: { body: CreateListingSchema },
    responses: {
      201: { description: 'The listing', schema: ListingSchema },
      409: { description: 'COMPANION_NOT_PURCHASABLE, ITEM_NOT_IN_INVENTORY, IDEMPOTENCY_CONFLICT' },
    },
    handler: async ({ req, body }) => {
      const { idempotency_key: fromBody, ...input } = body;
      const key = optionalIdempotencyKeyOf(req, fromBody);
      const { listing, replayed } = await createListing(core, { ...input, seller: callerId(req) }, key);
      return { status: 201, body: presentListing(listing), headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'get',
    path: '/marketplace/listings/:id',
    summary: 'A listing',
    tags: ['marketplace'],
    request: { params: ListingParamsSchema },
    responses: {
      200: { description: 'The listing', schema: ListingSchema },
      404: { description: 'LISTING_NOT_FOUND' },
    },
    handler: async ({ params }) => ({
      status: 200,
      body: presentListing(await findListing(core, params.id)),
    }),
  });

  routes.add({
    method: 'delete',
    path: '/marketplace/listings/:id',
    summary: 'Cancel your listing; an escrowed item returns to your inventory',
    tags: ['marketplace'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: ListingParamsSchema },
    responses: {
      200: { description: 'The cancelled listing', schema: ListingSchema },
      403: { description: 'NOT_LISTING_SELLER' },
      404: { description: 'LISTING_NOT_FOUND' },
      409: { description: 'LISTING_NOT_ACTIVE (sold or escrowing)' },
    },
    handler: async ({ req, params }) => ({
      status: 200,
      body: presentListing(await cancelListing(core, params.id, callerId(req))),
    }),
  });

  routes.add({
    method: 'post',
    path: '/marketplace/listings/:id/buy',
    summary: 'Buy a listing: pay, the seller gets 95%, the platform 5%, the item comes to your inventory',
    description:
      'Idempotent per idempotency_key: a retry answers the first result with `Idempotent-Replayed: true`; the key ' +
      'with another listing is 409 IDEMPOTENCY_CONFLICT.',
    tags: ['marketplace'],
    security: 'bearer',
    middleware: guard.requireTier(1),
    request: { params: ListingParamsSchema, body: BuyRequestSchema },
    responses: {
      201: { description: 'The delivered sale', schema: SaleSchema },
      404: { description: 'LISTING_NOT_FOUND' },
      409: { description: 'LISTING_SOLD, LISTING_NOT_ACTIVE, INSUFFICIENT_FUNDS, CANNOT_BUY_OWN_LISTING' },
    },
    handler: async ({ req, params, body }) => {
      const { sale, replayed } = await buyListing(
        core,
        params.id,
        callerId(req),
        idempotencyKeyOf(req, body.idempotency_key),
      );
      return { status: 201, body: presentSale(sale), headers: replayHeaders(replayed) };
    },
  });

  routes.add({
    method: 'get',
    path: '/marketplace/search',
    summary: 'Search active listings (semantic by default; semantic=false for keywords)',
    tags: ['marketplace'],
    request: { query: SearchQuerySchema },
    responses: { 200: { description: 'One page of listings', schema: SearchResultSchema } },
    handler: async ({ query }) => {
      const page = await searchListings(core, {
        q: query.q,
        semantic: query.semantic,
        currency: query.currency,
        minPrice: query.min_price,
        maxPrice: query.max_price,
        category: query.category,
        seller: query.seller,
        sort: query.sort,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { status: 200, body: presentResults(page) };
    },
  });

  routes.add({
    method: 'get',
    path: '/marketplace/listings/:id/similar',
    summary: 'The active listings nearest to this one by vector',
    tags: ['marketplace'],
    request: { params: ListingParamsSchema, query: SimilarQuerySchema },
    responses: {
      200: { description: 'Nearest first', schema: SearchResultSchema },
      404: { description: 'LISTING_NOT_FOUND' },
    },
    handler: async ({ params, query }) => ({
      status: 200,
      body: presentResults(await similarListings(core, params.id, query.limit)),
    }),
  });
}
