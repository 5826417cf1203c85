import { Schema, type Connection, type Types } from 'mongoose';
import { ledgerLineFields, type LedgerLine } from './EconomyAccount';
import { modelFor } from './modelFor';

/**
 * The economy's append-only ledger: one document per change of one account's balance in one currency (always on).
 * The unique `key` makes the write idempotent; `(account, _id)` serves the per-account listing newest first.
 */
export interface LedgerEntryRecord extends LedgerLine {
  _id: Types.ObjectId;
}

const ledgerEntrySchema = new Schema<LedgerEntryRecord>(ledgerLineFields, { versionKey: false });
ledgerEntrySchema.index({ key: 1 }, { unique: true });
ledgerEntrySchema.index({ account: 1, _id: -1 });

/** The `ledgerentries` collection on `connection`. */
export const ledgerEntryModel = (connection: Connection) =>
  modelFor(connection, 'LedgerEntry', ledgerEntrySchema);
