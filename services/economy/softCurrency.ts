import type { Connection, Model } from 'mongoose';
import { ConflictError, UnavailableError, ValidationError } from '../../platform/errors';
import {
  softCurrencyAccountModel,
  type SoftCurrencyAccountRecord,
  type SoftCurrencyChange,
} from '../../models/SoftCurrencyAccount';
import {
  softCurrencyLedgerEntryModel,
  type SoftCurrencyLedgerEntryRecord,
} from '../../models/SoftCurrencyLedgerEntry';

/** A credit or debit of one address's soft currency. */
export interface BalanceChange {
  /** Unique per intended change: a retry with the same key applies nothing twice. */
  idempotencyKey: string;
  /** 0x address, any case. */
  address: string;
  /** Positive amount in the smallest unit. */
  amount: bigint;
  /** Why, e.g. `quest-reward` (kept in the ledger). */
  reason: string;
}

/** Outcome of a change: the balance after it, and whether this call applied it (false: an earlier call did). */
export interface AppliedChange {
  balance: bigint;
  applied: boolean;
}

/** 409: a debit larger than the balance. Nothing changes. */
export class InsufficientSoftCurrencyError extends ConflictError {
  constructor(balance: bigint, amount: bigint) {
    super(`Balance ${balance} is below the ${amount} to debit`, 'ECONOMY_INSUFFICIENT_BALANCE', {
      balance: balance.toString(),
      required: amount.toString(),
    });
  }
}

/** 409: an idempotency key already used for a different change. */
export class IdempotencyConflictError extends ConflictError {
  constructor(key: string) {
    super(`Idempotency key ${key} was already used for another change`, 'ECONOMY_IDEMPOTENCY_CONFLICT');
  }
}

type Entry = SoftCurrencyChange;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Entries kept on the account for crash recovery (a change whose ledger write did not happen yet). */
const RECENT_ENTRIES = 20;
/** Compare-and-set rounds before giving up on an account other writers keep changing. */
const MAX_ATTEMPTS = 50;

/**
 * The soft-currency balance store (DESIGN "Money and signatures"): a balance changes only through a single-document
 * compare-and-set on its previous value, and each change leaves an append-only ledger entry under its idempotency
 * key. The entry is also pushed onto the account in the same update, so a change that crashed before its ledger
 * write is completed, not repeated, by its retry. The signer reads balances through `getBalance`.
 */
export class SoftCurrencyLedger {
  private readonly accounts: Model<SoftCurrencyAccountRecord>;
  private readonly ledger: Model<SoftCurrencyLedgerEntryRecord>;

  private constructor(connection: Connection) {
    this.accounts = softCurrencyAccountModel(connection);
    this.ledger = softCurrencyLedgerEntryModel(connection);
  }

  /** Binds the models to `connection` and builds their unique indexes (idempotency depends on them). */
  static async open(connection: Connection): Promise<SoftCurrencyLedger> {
    const store = new SoftCurrencyLedger(connection);
    await Promise.all([store.accounts.init(), store.ledger.init()]);
    return store;
  }

  /** The balance of `address` in the smallest unit; 0 for an address never credited. */
  async getBalance(address: string): Promise<bigint> {
    const account = await this.accounts.findOne({ address: normalise(address) }, { balance: 1 }).lean();
    return account ? BigInt(account.balance) : 0n;
  }

  /** Adds `amount` to the balance, once per idempotency key. */
  credit(change: BalanceChange): Promise<AppliedChange> {
    return this.apply(change, 1n);
  }

  /** Takes `amount` from the balance, once per idempotency key; InsufficientSoftCurrencyError if it is short. */
  debit(change: BalanceChange): Promise<AppliedChange> {
    return this.apply(change, -1n);
  }

  private async apply(change: BalanceChange, sign: 1n | -1n): Promise<AppliedChange> {
    const address = normalise(change.address);
    if (change.amount <= 0n)
      throw new ValidationError('amount must be positive', [{ path: 'amount', message: 'must be positive' }]);
    const delta = (change.amount * sign).toString();
    const key = change.idempotencyKey;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const done = await this.ledger.findOne({ idempotencyKey: key }).lean();
      if (done) return this.repeated(done, address, delta);
      const account = await this.accounts
        .findOneAndUpdate(
          { address },
          { $setOnInsert: { address, balance: '0', recent: [] } },
          { upsert: true, returnDocument: 'after' },
        )
        .lean();
      if (!account) throw new Error(`account ${address} vanished`);
      const pending = account.recent.find((entry) => entry.idempotencyKey === key);
      if (pending) return this.repeated(await this.record(pending), address, delta);
      const next = BigInt(account.balance) + change.amount * sign;
      if (next < 0n) throw new InsufficientSoftCurrencyError(BigInt(account.balance), change.amount);
      const entry: Entry = {
        idempotencyKey: key,
        address,
        delta,
        balanceAfter: next.toString(),
        reason: change.reason,
      };
      const swapped = await this.accounts.updateOne(
        { address, balance: account.balance, 'recent.idempotencyKey': { $ne: key } },
        {
          $set: { balance: entry.balanceAfter },
          $push: { recent: { $each: [entry], $slice: -RECENT_ENTRIES } },
        },
      );
      // Another change won the race: read the new balance and try again.
      if (swapped.modifiedCount === 0) continue;
      await this.record(entry);
      return { balance: next, applied: true };
    }
    throw new UnavailableError(`Balance of ${address} is changing too fast; retry`, 'ECONOMY_BUSY');
  }

  /** Appends the ledger entry (idempotent: a second write of the same key keeps the first). */
  private async record(entry: Entry): Promise<SoftCurrencyLedgerEntryRecord> {
    const stored = await this.ledger
      .findOneAndUpdate(
        { idempotencyKey: entry.idempotencyKey },
        { $setOnInsert: entry },
        { upsert: true, returnDocument: 'after' },
      )
      .lean();
    if (!stored) throw new Error(`ledger entry ${entry.idempotencyKey} vanished`);
    return stored;
  }

  private repeated(entry: Entry, address: string, delta: string): AppliedChange {
    if (entry.address !== address || entry.delta !== delta)
      throw new IdempotencyConflictError(entry.idempotencyKey);
    return { balance: BigInt(entry.balanceAfter), applied: false };
  }
}

function normalise(address: string): string {
  if (!ADDRESS.test(address))
    throw new ValidationError('address must be 0x followed by 40 hex digits', [
      { path: 'address', message: 'must be 0x followed by 40 hex digits' },
    ]);
  return address.toLowerCase();
}
