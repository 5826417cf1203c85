import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * One change of a soft-currency balance, append-only. The unique `idempotencyKey` is what makes a retried credit
 * or debit apply once: the second attempt finds its entry (or its key in the account's `recentKeys`) and stops.
 */
export interface SoftCurrencyLedgerEntryRecord {
  _id: Types.ObjectId;
  idempotencyKey: string;
  /** Lowercase 0x address. */
  address: string;
  /** Signed decimal string in the smallest unit: positive for a credit, negative for a debit. */
  delta: string;
  /** The balance right after this change. */
  balanceAfter: string;
  /** Why, e.g. `quest-reward`, `admin-grant`, `forge-commit`. */
  reason: string;
  createdAt: Date;
}

const softCurrencyLedgerEntrySchema = new Schema<SoftCurrencyLedgerEntryRecord>(
  {
    idempotencyKey: { type: String, required: true, unique: true, maxlength: 200 },
    address: { type: String, required: true, index: true },
    delta: { type: String, required: true },
    balanceAfter: { type: String, required: true },
    reason: { type: String, required: true, maxlength: 100 },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);

export const softCurrencyLedgerEntryModel = (connection: Connection) =>
  modelFor(connection, 'SoftCurrencyLedgerEntry', softCurrencyLedgerEntrySchema);
