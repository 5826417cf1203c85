import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** The platform's two currencies (SPEC 1): `soft` (world coins, decays 1%/month) and `hard` (capped supply). */
export const CURRENCIES = ['soft', 'hard'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Why a ledger line exists; the conservation audit and the ledger route group by it. */
export const LEDGER_KINDS = [
  'genesis',
  'grant',
  'transfer',
  'world',
  'migration',
  'decay',
  'hold',
  'hold_release',
  'forge',
  'purchase',
  'sale',
  'fee',
  'refund',
  'link',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * One change of one account in one currency, as it appears in the ledger (models/LedgerEntry.ts) and, until the
 * ledger write is done, in the account's `pending` list. `delta` changes the spendable balance, `heldDelta` the held
 * one (holds move soft currency between the two).
 */
export interface LedgerLine {
  /** Unique per change: `<operation id>:<leg index>`. */
  key: string;
  account: string;
  currency: Currency;
  delta: number;
  heldDelta: number;
  balanceAfter: number;
  heldAfter: number;
  kind: LedgerKind;
  /** What the change is about: a transfer, a listing, a signature, a world save. */
  ref: string;
  /** The operation (idempotency record) this line belongs to. */
  op: string;
  at: Date;
}

/** Soft currency reserved for a forge start (or another pending spend) until consumed, released or expired. */
export interface HoldRecord {
  id: string;
  amount: number;
  expiresAt: Date;
}

/** Who an account belongs to: a platform user, an unlinked wallet address, or the platform itself. */
export type AccountOwnerKind = 'user' | 'address' | 'system';

/**
 * One economy account (`_id`: `user:<userId>`, `address:<0x…>` or `system:<name>`). Balances are integers in the
 * smallest unit; they change only by a compare-and-set on `v` that also pushes the change onto `pending`, so a change
 * whose ledger write was interrupted is found and completed, never repeated (services/economy/legApplier.ts).
 */
export interface EconomyAccountRecord {
  _id: string;
  owner: AccountOwnerKind;
  soft: number;
  hard: number;
  held: number;
  holds: HoldRecord[];
  /** Version for compare-and-set; +1 on every balance change. */
  v: number;
  pending: LedgerLine[];
  /**
   * Leg keys refused on this account (the newest REFUSALS_KEPT), with the reason: a refusal is written by the same
   * compare-and-set discipline as a change, so a concurrent execution of the same leg cannot apply it afterwards.
   */
  refused?: LegRefusal[];
  /** Last decay period (`YYYY-MM`) applied to the soft balance. */
  decayedThrough?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A leg that was refused on an account, and why. */
export interface LegRefusal {
  key: string;
  code: string;
  detail: string;
}

/** Refusals kept per account: far more than the executions of one operation that can overlap. */
export const REFUSALS_KEPT = 100;

/** Fields of a ledger line, shared by the account's `pending` list and the ledger collection. */
export const ledgerLineFields = {
  key: { type: String, required: true, maxlength: 300 },
  account: { type: String, required: true },
  currency: { type: String, enum: CURRENCIES, required: true },
  delta: { type: Number, required: true },
  heldDelta: { type: Number, required: true },
  balanceAfter: { type: Number, required: true },
  heldAfter: { type: Number, required: true },
  kind: { type: String, enum: LEDGER_KINDS, required: true },
  ref: { type: String, required: true, maxlength: 300 },
  op: { type: String, required: true, maxlength: 300 },
  at: { type: Date, required: true },
} as const;

const economyAccountSchema = new Schema<EconomyAccountRecord>(
  {
    _id: { type: String, required: true },
    owner: { type: String, enum: ['user', 'address', 'system'], required: true },
    soft: { type: Number, required: true, default: 0 },
    hard: { type: Number, required: true, default: 0 },
    held: { type: Number, required: true, default: 0, min: 0 },
    holds: {
      type: [
        new Schema<HoldRecord>(
          {
            id: { type: String, required: true },
            amount: { type: Number, required: true },
            expiresAt: { type: Date, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    v: { type: Number, required: true, default: 0 },
    pending: { type: [new Schema<LedgerLine>(ledgerLineFields, { _id: false })], default: [] },
    refused: {
      type: [
        new Schema<LegRefusal>(
          {
            key: { type: String, required: true },
            code: { type: String, required: true },
            detail: { type: String, required: true },
          },
          { _id: false },
        ),
      ],
      default: undefined,
    },
    decayedThrough: { type: String },
  },
  { timestamps: true, versionKey: false },
);
economyAccountSchema.index({ 'holds.expiresAt': 1 });
economyAccountSchema.index({ owner: 1, decayedThrough: 1 });

/** The `economyaccounts` collection on `connection`. */
export const economyAccountModel = (connection: Connection) =>
  modelFor(connection, 'EconomyAccount', economyAccountSchema);
