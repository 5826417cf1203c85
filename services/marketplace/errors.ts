import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors';

/** Stable error codes of the marketplace, with their statuses in one place. */
export const MARKETPLACE_ERRORS = {
  LISTING_NOT_FOUND: 404,
  NOT_LISTING_SELLER: 403,
  LISTING_SOLD: 409,
  LISTING_NOT_ACTIVE: 409,
  CANNOT_BUY_OWN_LISTING: 409,
  COMPANION_NOT_PURCHASABLE: 409,
  UNKNOWN_ITEM: 400,
} as const;

/** 404: no listing with this id. */
export class ListingNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No listing ${id}`, 'LISTING_NOT_FOUND');
  }
}

/** 403: only the seller may cancel a listing. */
export class NotListingSellerError extends ForbiddenError {
  constructor() {
    super('Only the seller can cancel this listing', 'NOT_LISTING_SELLER');
  }
}

/** 409: the listing was bought already (by another buyer, or another purchase of the same buyer). */
export class ListingSoldError extends ConflictError {
  constructor(id: string) {
    super(`Listing ${id} is sold`, 'LISTING_SOLD');
  }
}

/** 409: the listing is cancelled or still taking its item into escrow. */
export class ListingNotActiveError extends ConflictError {
  constructor(id: string, state: string) {
    super(`Listing ${id} is ${state}, not for sale`, 'LISTING_NOT_ACTIVE');
  }
}

/** 409: a seller buying their own listing. */
export class CannotBuyOwnListingError extends ConflictError {
  constructor() {
    super('You cannot buy your own listing', 'CANNOT_BUY_OWN_LISTING');
  }
}

/** 409: companions are never purchasable (SPEC 1: is_purchasable is false), so they cannot be listed. */
export class CompanionNotPurchasableError extends ConflictError {
  constructor(item: string) {
    super(`${item} is a companion; companions are never purchasable`, 'COMPANION_NOT_PURCHASABLE');
  }
}

/** 400: the item is neither a world item nor creator content (`content:<slug>`). */
export class UnknownItemError extends ValidationError {
  constructor(item: string) {
    super(
      `Unknown item ${item}`,
      [{ path: 'body.item', message: 'not a world item or content:<slug>' }],
      'UNKNOWN_ITEM',
    );
  }
}
