import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * The soft-currency balance of one wallet address (SPEC 1: the platform's soft currency, spent on forging).
 * `balance` is a canonical decimal string of the amount in the smallest unit, so uint256-sized values keep full
 * precision; it changes only through a compare-and-set on its previous value (services/economy/softCurrency.ts).
 * `recent` holds the ledger entries of the latest changes, written in the same update as the balance, so a change
 * interrupted before its ledger write is completed (not repeated) when retried.
 */
/** A change as recorded on the account (the same fields as its ledger entry). */
export interface SoftCurrencyChange {
  idempotencyKey: string;
  address: string;
  delta: string;
  balanceAfter: string;
  reason: string;
}

export interface SoftCurrencyAccountRecord {
  _id: Types.ObjectId;
  /** Lowercase 0x address. */
  address: string;
  balance: string;
  recent: SoftCurrencyChange[];
  createdAt: Date;
  updatedAt: Date;
}

const softCurrencyAccountSchema = new Schema<SoftCurrencyAccountRecord>(
  {
    address: { type: String, required: true, unique: true, match: /^0x[0-9a-f]{40}$/ },
    balance: { type: String, required: true, match: /^(0|[1-9][0-9]*)$/ },
    recent: {
      type: [
        new Schema<SoftCurrencyChange>(
          {
            idempotencyKey: { type: String, required: true },
            address: { type: String, required: true },
            delta: { type: String, required: true },
            balanceAfter: { type: String, required: true },
            reason: { type: String, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
  },
  { timestamps: true },
);

export const softCurrencyAccountModel = (connection: Connection) =>
  modelFor(connection, 'SoftCurrencyAccount', softCurrencyAccountSchema);
