import { Schema, type Connection, type Types } from 'mongoose';
import { CURRENCIES, type Currency } from './EconomyAccount';
import { modelFor } from './modelFor';

/** Where a listing's goods come from: a character's inventory (escrowed) or a creator's digital content. */
export type ListingSource = 'inventory' | 'content';

/**
 * A listing's life: `escrowing` (the item is being taken out of the seller's inventory) → `active` (buyable) →
 * `sold` (reserved for one sale, then delivered) or `cancelled` (by the seller; the item goes back).
 */
export type ListingState = 'escrowing' | 'active' | 'sold' | 'cancelled';

/** A marketplace listing (SPEC 4.6): what is sold, by whom, for how much, and where it is in its life. */
export interface MarketListingRecord {
  _id: Types.ObjectId;
  seller: string;
  source: ListingSource;
  /** A world item ref (`village:bread`) or a content id (`content:<slug>`). */
  item: string;
  qty: number;
  price: { currency: Currency; amount: number };
  title: string;
  description: string;
  category: string;
  state: ListingState;
  /** The sale the listing is reserved for once bought. */
  saleId?: string;
  buyer?: string;
  /** Cancelled inventory listings: the item went back to the seller. */
  returned: boolean;
  /** The listing's vector is in the search collection. */
  indexed: boolean;
  /**
   * Failed attempts to put an active listing's vector in the search collection since it was last indexed, the last
   * one's error code (`BRAIN_EMBEDDING_UNAVAILABLE`, ...) and when (the recovery job retries; absent: none failed).
   */
  indexAttempts?: number;
  indexError?: string | null;
  indexFailedAt?: Date | null;
  /** `<seller>:<idempotency key>` of the request that created it (when one was sent), and that request's hash. */
  requestKey?: string;
  requestHash?: string;
  createdAt: Date;
  updatedAt: Date;
}

const marketListingSchema = new Schema<MarketListingRecord>(
  {
    seller: { type: String, required: true },
    source: { type: String, enum: ['inventory', 'content'], required: true },
    item: { type: String, required: true, maxlength: 200 },
    qty: { type: Number, required: true, min: 1 },
    price: {
      currency: { type: String, enum: CURRENCIES, required: true },
      amount: { type: Number, required: true, min: 1 },
    },
    title: { type: String, required: true, maxlength: 120 },
    description: { type: String, default: '', maxlength: 2000 },
    category: { type: String, required: true, maxlength: 40 },
    state: { type: String, enum: ['escrowing', 'active', 'sold', 'cancelled'], required: true },
    saleId: { type: String },
    buyer: { type: String },
    returned: { type: Boolean, default: false },
    indexed: { type: Boolean, default: false },
    indexAttempts: { type: Number },
    indexError: { type: String },
    indexFailedAt: { type: Date },
    requestKey: { type: String },
    requestHash: { type: String },
  },
  { timestamps: true, versionKey: false },
);
marketListingSchema.index({ state: 1, createdAt: -1 });
marketListingSchema.index({ seller: 1, state: 1 });
// Active listings not in the search collection yet (the backlog count, its oldest, the gauge): a small index.
marketListingSchema.index(
  { createdAt: 1 },
  { partialFilterExpression: { state: 'active', indexed: false }, name: 'unindexed_active' },
);
// One listing per seller and idempotency key: a retried create finds the first one.
marketListingSchema.index({ requestKey: 1 }, { unique: true, sparse: true });

/** The `marketlistings` collection on `connection`. */
export const marketListingModel = (connection: Connection) =>
  modelFor(connection, 'MarketListing', marketListingSchema);
