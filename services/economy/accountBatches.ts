import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { EconomyAccountRecord, LedgerLine } from '../../models/EconomyAccount';
import type { LedgerEntryRecord } from '../../models/LedgerEntry';
import type { Clock } from '../../platform/clock';
import { SYSTEM_ACCOUNTS, ownerOf } from './accountIds';
import { GroupCommit } from '../../platform/stores/groupCommit';
import { isDuplicateKey } from '../../platform/stores/nativeCollection';

/** Accounts as read before an operation was created, by id (see `LegApplier.applyAll`). */
export type AccountSnapshots = Map<string, EconomyAccountRecord>;

/** One compare-and-set of a leg: the account as read (its version), and the new balance fields and line. */
export interface Swap {
  account: EconomyAccountRecord;
  set: Record<string, unknown>;
  line: LedgerLine;
}

/** A run of swaps that was not tried because an earlier operation's swap in the same batch lost its race. */
export const NOT_TRIED = -1;

/** Accounts whose latest swapped state is remembered (the most recently swapped). */
const REMEMBERED_ACCOUNTS = 10_000;

/** An account's latest state after this process's own swaps, and the version their unbroken chain starts from. */
interface SwapChain {
  from: number;
  state: EconomyAccountRecord;
}

/**
 * The economy's batched store calls, each a group commit shared by concurrent operations: snapshot reads of accounts,
 * compare-and-sets of legs, and ledger writes with their pending pulls. One call per batch instead of one per
 * operation (the embedded engine's cost is per call).
 */
/** Economy batches gather the callers of one event-loop turn before writing. */
const GATHER = { gatherTurn: true };

export class AccountBatches {
  private readonly reads = new GroupCommit<string[], AccountSnapshots>(
    (lists) => this.readAll(lists),
    GATHER,
  );
  private readonly swaps = new GroupCommit<Swap[], number>((runs) => this.swapAll(runs), GATHER);
  private readonly records = new GroupCommit<LedgerLine[], void>(async (lists) => {
    await this.writeLines(lists.flat());
    return [];
  }, GATHER);
  private readonly chains = new Map<string, SwapChain>();

  constructor(
    private readonly accounts: Collection<EconomyAccountRecord>,
    private readonly ledger: Collection<LedgerEntryRecord>,
    private readonly clock: Clock,
  ) {}

  /**
   * The accounts `ids` as they are now. An account not created yet reads as the blank account `LegApplier.read` would
   * create (version 0: no leg was ever applied to it), which the first swap on it inserts; the hard issuer, created
   * with its genesis line, is left out instead.
   */
  read(ids: string[]): Promise<AccountSnapshots> {
    return this.reads.submit(ids);
  }

  /**
   * Compare-and-sets `run` in order; answers how many were applied before one lost its race (that one and those
   * after it were not), or NOT_TRIED when an earlier operation's swap stopped the batch first (submit again).
   */
  swap(run: Swap[]): Promise<number> {
    return this.swaps.submit(run);
  }

  /**
   * A state of `account` later than the given one that only this process's swaps led to, if there is one: balances,
   * held, holds and version exact (its `pending` may be stale; a swap pushes onto it). Every change of an account
   * bumps its version, and a swap is remembered only when it went from the very version the chain ended at, so the
   * changes between `account` and the answer are exactly those swaps; and a swap is made only by the first
   * execution of its operation. So a leg absent from `account` (a snapshot from before its operation existed, or a
   * state this proved in turn) is absent from the answer too, unless this execution swapped it itself.
   */
  after(account: EconomyAccountRecord): EconomyAccountRecord | undefined {
    const chain = this.chains.get(account._id);
    return chain && chain.from <= account.v && chain.state.v > account.v ? chain.state : undefined;
  }

  /** Writes `lines` to the ledger (idempotent), then removes them from their accounts' pending lists. */
  async record(lines: LedgerLine[]): Promise<void> {
    if (lines.length > 0) await this.records.submit(lines);
  }

  private async readAll(lists: string[][]): Promise<AccountSnapshots[]> {
    const found = await this.accounts.find({ _id: { $in: [...new Set(lists.flat())] } }).toArray();
    const byId = new Map(found.map((account) => [account._id, account]));
    const now = new Date(this.clock.now());
    return lists.map((ids) => {
      const snapshots: AccountSnapshots = new Map();
      for (const id of ids) {
        const account = byId.get(id) ?? (id === SYSTEM_ACCOUNTS.issuer ? undefined : blankAccount(id, now));
        if (account) snapshots.set(id, account);
      }
      return snapshots;
    });
  }

  /**
   * The runs of several operations, one after another in one ordered batch. Each compare-and-set is an upsert, so a
   * lost race (the version moved) cannot match, tries to insert the existing `_id`, and its duplicate-key error stops
   * the batch there: nothing after it is applied, so no leg ever lands before an earlier leg of its operation.
   * Accounts are never deleted, so an upsert inserts only an account that was read blank and is still missing: the
   * blank account's fields (`$setOnInsert`) with the leg applied.
   */
  private async swapAll(runs: Swap[][]): Promise<number[]> {
    const swaps: AnyBulkWriteOperation<EconomyAccountRecord>[] = runs
      .flat()
      .map(({ account, set, line }) => ({
        updateOne: {
          filter: { _id: account._id, v: account.v },
          update: {
            $set: { ...set, updatedAt: line.at },
            $inc: { v: 1 },
            $push: { pending: line },
            $setOnInsert: insertedFields(account, set),
          },
          upsert: true,
        },
      }));
    let stoppedAt = swaps.length;
    try {
      await this.accounts.bulkWrite(swaps, { ordered: true });
    } catch (error) {
      const lost = firstWriteError(error);
      if (!lost || !isDuplicateKey(lost)) throw error;
      stoppedAt = lost.index;
    }
    for (const swap of runs.flat().slice(0, stoppedAt)) this.remember(swap);
    let start = 0;
    return runs.map((run) => {
      const applied = start > stoppedAt ? NOT_TRIED : Math.min(run.length, stoppedAt - start);
      start += run.length;
      return applied;
    });
  }

  /** Extends the account's chain by a swap that went through (or starts a new chain from the swap's version). */
  private remember({ account, set }: Swap): void {
    const chain = this.chains.get(account._id);
    const from = chain && chain.state.v === account.v ? chain.from : account.v;
    this.chains.delete(account._id);
    this.chains.set(account._id, { from, state: { ...account, ...set, v: account.v + 1 } });
    if (this.chains.size > REMEMBERED_ACCOUNTS) this.chains.delete(this.chains.keys().next().value as string);
  }

  private async writeLines(lines: LedgerLine[]): Promise<void> {
    // A line another execution wrote first is the same line (the one on the account): its duplicate is skipped.
    await this.ledger
      .insertMany(
        lines.map((line) => ({ ...line }) as LedgerEntryRecord),
        { ordered: false },
      )
      .catch((error: { writeErrors?: unknown }) => {
        const errors = [error.writeErrors ?? error].flat();
        if (errors.length === 0 || !errors.every(isDuplicateKey)) throw error;
      });
    await this.accounts.bulkWrite(
      lines.map((line) => ({
        updateOne: { filter: { _id: line.account }, update: { $pull: { pending: { key: line.key } } } },
      })),
      { ordered: false },
    );
  }
}

/** An account not created yet, as `LegApplier.read` creates it. */
function blankAccount(id: string, at: Date): EconomyAccountRecord {
  return {
    _id: id,
    owner: ownerOf(id),
    soft: 0,
    hard: 0,
    held: 0,
    holds: [],
    v: 0,
    pending: [],
    createdAt: at,
    updatedAt: at,
  };
}

/** The fields a swap's upsert writes besides its `$set` when it inserts the account it read blank. */
function insertedFields(
  account: EconomyAccountRecord,
  set: Record<string, unknown>,
): Record<string, unknown> {
  const { owner, soft, hard, held, holds, createdAt } = account;
  const fields: Record<string, unknown> = { owner, soft, hard, held, holds, createdAt };
  for (const key of Object.keys(set)) delete fields[key];
  return fields;
}

/** The first write error of a failed bulk write (its index in the batch and code), if that is what failed. */
function firstWriteError(error: unknown): { index: number; code: number } | undefined {
  const errors = (error as { writeErrors?: unknown }).writeErrors;
  const first = (Array.isArray(errors) ? errors[0] : errors) as { index?: number; code?: number } | undefined;
  return typeof first?.index === 'number' && typeof first.code === 'number'
    ? { index: first.index, code: first.code }
    : undefined;
}
