import { Schema, type Connection } from 'mongoose';
import { CURRENCIES, LEDGER_KINDS, type Currency, type LedgerKind } from './EconomyAccount';
import { modelFor } from './modelFor';

/** How a leg treats a hold: place one (available → held), release it (held → available) or consume it. */
export type HoldAction = 'place' | 'release' | 'consume';

/** One account change of an operation. Only the first leg of an operation may be refused for funds. */
export interface OperationLeg {
  account: string;
  currency: Currency;
  /** Change of the spendable balance (for `hold` legs: the hold's amount, negative). */
  delta: number;
  kind: LedgerKind;
  /** `available`: refused when the spendable balance would go below zero; `none`: may go negative (issuers). */
  floor: 'available' | 'none';
  hold?: { id: string; action: HoldAction; expiresAt?: Date };
}

/** A refused operation's error, replayed to a retry with the same idempotency key. */
export interface OperationError {
  status: number;
  code: string;
  detail: string;
}

export type OperationState = 'pending' | 'done' | 'failed';

/**
 * One money-moving operation and its idempotency record (`_id`: the caller's scope + idempotency key). The legs are
 * applied in order, each idempotently; `state` says whether all were (`done`), the first was refused (`failed`), or
 * the operation is in flight or was interrupted (`pending`, completed by the recovery job).
 */
export interface EconomyOperationRecord {
  _id: string;
  kind: LedgerKind;
  ref: string;
  /** sha256 of the request that created it: the same key with another body is IDEMPOTENCY_CONFLICT. */
  requestHash: string;
  legs: OperationLeg[];
  state: OperationState;
  /** Balances after each leg (filled when done). */
  balancesAfter: number[];
  error?: OperationError;
  /** Free-form presentation data (memo, recipient) kept for replays. */
  meta?: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

const legSchema = new Schema<OperationLeg>(
  {
    account: { type: String, required: true },
    currency: { type: String, enum: CURRENCIES, required: true },
    delta: { type: Number, required: true },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    floor: { type: String, enum: ['available', 'none'], required: true },
    hold: {
      type: new Schema(
        {
          id: { type: String, required: true },
          action: { type: String, enum: ['place', 'release', 'consume'], required: true },
          expiresAt: { type: Date },
        },
        { _id: false },
      ),
      required: false,
    },
  },
  { _id: false },
);

const economyOperationSchema = new Schema<EconomyOperationRecord>(
  {
    _id: { type: String, required: true, maxlength: 400 },
    kind: { type: String, enum: LEDGER_KINDS, required: true },
    ref: { type: String, required: true },
    requestHash: { type: String, required: true },
    legs: { type: [legSchema], required: true },
    state: { type: String, enum: ['pending', 'done', 'failed'], required: true },
    balancesAfter: { type: [Number], default: [] },
    error: {
      type: new Schema<OperationError>({ status: Number, code: String, detail: String }, { _id: false }),
      required: false,
    },
    meta: { type: Schema.Types.Mixed },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
economyOperationSchema.index({ state: 1, updatedAt: 1 });

/** The `economyoperations` collection on `connection`. */
export const economyOperationModel = (connection: Connection) =>
  modelFor(connection, 'EconomyOperation', economyOperationSchema);
