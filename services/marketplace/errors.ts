import { errorFactory, type AppError } from '../../platform/errors';

/** Every code the marketplace answers with beyond the platform's own, and how each answers, in one place. */
export const MARKETPLACE_ERRORS = {
  LISTING_NOT_FOUND: { status: 404, title: 'Not Found' },
  NOT_LISTING_SELLER: { status: 403, title: 'Forbidden' },
  LISTING_SOLD: { status: 409, title: 'Conflict' },
  LISTING_NOT_ACTIVE: { status: 409, title: 'Conflict' },
  CANNOT_BUY_OWN_LISTING: { status: 409, title: 'Conflict' },
  COMPANION_NOT_PURCHASABLE: { status: 409, title: 'Conflict' },
  UNKNOWN_ITEM: { status: 400, title: 'Invalid request' },
  LISTING_BUSY: { status: 503, title: 'Service Unavailable' },
} as const;

/** `marketplaceError('CODE', detail)`: the AppError that code answers with. */
export const marketplaceError = errorFactory(MARKETPLACE_ERRORS);

/** 404: no listing with this id. */
export function listingNotFound(id: string): AppError {
  return marketplaceError('LISTING_NOT_FOUND', `No listing ${id}`);
}

/** 403: only the seller may cancel a listing. */
export function notListingSeller(): AppError {
  return marketplaceError('NOT_LISTING_SELLER', 'Only the seller can cancel this listing');
}

/** 409: the listing was bought already (by another buyer, or another purchase of the same buyer). */
export function listingSold(id: string): AppError {
  return marketplaceError('LISTING_SOLD', `Listing ${id} is sold`);
}

/** 409: the listing is cancelled or still taking its item into escrow. */
export function listingNotActive(id: string, state: string): AppError {
  return marketplaceError('LISTING_NOT_ACTIVE', `Listing ${id} is ${state}, not for sale`);
}

/** 409: a seller buying their own listing. */
export function cannotBuyOwnListing(): AppError {
  return marketplaceError('CANNOT_BUY_OWN_LISTING', 'You cannot buy your own listing');
}

/** 409: companions are never purchasable (SPEC 1: is_purchasable is false), so they cannot be listed. */
export function companionNotPurchasable(item: string): AppError {
  return marketplaceError(
    'COMPANION_NOT_PURCHASABLE',
    `${item} is a companion; companions are never purchasable`,
  );
}

/** 503: a concurrent request with the same idempotency key is creating the listing; the caller retries. */
export function listingBusy(): AppError {
  return marketplaceError('LISTING_BUSY', 'The listing request is being handled; retry');
}

/** 400: the item is neither a world item nor creator content (`content:<slug>`). */
export function unknownItem(item: string): AppError {
  return marketplaceError('UNKNOWN_ITEM', `Unknown item ${item}`, {
    errors: [{ path: 'body.item', message: 'not a world item or content:<slug>' }],
  });
}
