import { Schema, type Connection } from 'mongoose';
import { CURRENCIES, type Currency } from './EconomyAccount';
import { modelFor } from './modelFor';

/** A purchase saga's persisted step: `pending` → `paid` → `delivered`, or `failed` (nothing was paid). */
export type SaleState = 'pending' | 'paid' | 'delivered' | 'failed';

/**
 * One purchase of a listing (its `_id` is the buyer's idempotency scope + key). Each step is idempotent and the
 * state says how far it got, so the recovery job can finish an interrupted purchase (services/marketplace).
 */
export interface MarketSaleRecord {
  _id: string;
  listing: string;
  buyer: string;
  seller: string;
  item: string;
  qty: number;
  price: { currency: Currency; amount: number };
  fee: number;
  state: SaleState;
  error?: { status: number; code: string; detail: string };
  createdAt: Date;
  updatedAt: Date;
}

const marketSaleSchema = new Schema<MarketSaleRecord>(
  {
    _id: { type: String, required: true },
    listing: { type: String, required: true },
    buyer: { type: String, required: true },
    seller: { type: String, required: true },
    item: { type: String, required: true },
    qty: { type: Number, required: true },
    price: {
      currency: { type: String, enum: CURRENCIES, required: true },
      amount: { type: Number, required: true },
    },
    fee: { type: Number, required: true },
    state: { type: String, enum: ['pending', 'paid', 'delivered', 'failed'], required: true },
    error: { type: new Schema({ status: Number, code: String, detail: String }, { _id: false }) },
  },
  { timestamps: true, versionKey: false },
);
marketSaleSchema.index({ state: 1, updatedAt: 1 });

/** The `marketsales` collection on `connection`. */
export const marketSaleModel = (connection: Connection) =>
  modelFor(connection, 'MarketSale', marketSaleSchema);
