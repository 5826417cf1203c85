import type { Model } from 'mongoose';
import { REFUSALS_KEPT, type EconomyAccountRecord, type LedgerLine } from '../../models/EconomyAccount';
import type { EconomyOperationRecord, OperationLeg } from '../../models/EconomyOperation';
import type { LedgerEntryRecord } from '../../models/LedgerEntry';
import type { Clock } from '../../platform/clock';
import { HARD_SUPPLY_CAP, SYSTEM_ACCOUNTS, ownerOf } from './accountIds';
import { economyBusy, InsufficientFundsError } from './errors';
import { AccountBatches, NOT_TRIED, type AccountSnapshots, type Swap } from './accountBatches';
import { nativeCollection } from '../../platform/stores/nativeCollection';

/** Compare-and-set rounds before an account that keeps changing answers ECONOMY_BUSY. */
const MAX_ROUNDS = 200;

/** Lost races an operation's batched legs may go on from a later known state before taking the checked path. */
const MAX_REBASES = 8;

/** The codes a refused leg carries. */
type RefusalCode = ConstructorParameters<typeof InsufficientFundsError>[1];

/** A leg refused for funds (or a missing hold): the operation fails, nothing changed. */
export class LegRefused extends InsufficientFundsError {}

export type { AccountSnapshots } from './accountBatches';

/** What applying an operation's legs came to: every leg's line, or the first leg's refusal (nothing changed). */
export type LegsOutcome = { lines: LedgerLine[] } | { refused: LegRefused };

/**
 * Applies one leg of an operation to one account, exactly once per `key`, without transactions:
 *
 * 1. read the account (creating it at zero) with its version `v`;
 * 2. if `key` is in its `pending` list or in the ledger, the change was applied already: finish its ledger write
 *    and answer the recorded line;
 * 3. compute the new balances (refusing an overdraft) and compare-and-set on `v`, pushing the line onto `pending`
 *    in the same single-document update; a lost race goes back to 1;
 * 4. write the ledger entry (an upsert on `key`) and pull it from `pending`.
 *
 * Two executions of the same key race on `v`, so only one applies it; a crash between 3 and 4 leaves the line in
 * `pending`, where the next touch of the account or the recovery job completes it. A refusal is recorded the same
 * way (the key goes onto `refused` by a compare-and-set on `v`), so once one execution was refused, a concurrent one
 * cannot apply the leg after a credit lands: the operation's `failed` record never hides moved coins.
 */
export class LegApplier {
  private readonly batches: AccountBatches;

  constructor(
    private readonly accounts: Model<EconomyAccountRecord>,
    private readonly ledger: Model<LedgerEntryRecord>,
    private readonly clock: Clock,
  ) {
    this.batches = new AccountBatches(nativeCollection(accounts), nativeCollection(ledger), clock);
  }

  /** Applies `leg` under `key` (or answers its earlier result); throws LegRefused when it cannot be applied. */
  async apply(leg: OperationLeg, key: string, op: string, ref: string): Promise<LedgerLine> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const account = await this.read(leg.account);
      const pending = account.pending.find((line) => line.key === key);
      if (pending) return this.record(pending);
      const done = await this.ledger.findOne({ key }, { _id: 0 }).lean<LedgerLine>();
      if (done) return done;
      const earlier = account.refused?.find((refusal) => refusal.key === key);
      if (earlier) throw new LegRefused(earlier.detail, earlier.code as RefusalCode);
      let line: LedgerLine;
      try {
        line = nextLine(account, leg, key, op, ref, new Date(this.clock.now()));
      } catch (error) {
        if (!(error instanceof LegRefused)) throw error;
        if (await this.recordRefusal(account, key, error)) throw error;
        continue;
      }
      const swapped = await this.accounts.updateOne(
        { _id: account._id, v: account.v },
        {
          $set: balanceFields(line, account, leg),
          $inc: { v: 1 },
          $push: { pending: line },
        },
      );
      if (swapped.modifiedCount === 1) return this.record(line);
    }
    throw economyBusy(leg.account);
  }

  /**
   * Applies an operation's legs in order. Without snapshots every leg goes through `apply` (a resumed or replayed
   * operation: any leg may have been applied by another execution already).
   *
   * With `snapshots` (accounts read before this call created the operation; `snapshot`, where a missing account
   * reads blank) a leg is applied by one compare-and-set on the snapshot's version, without `apply`'s checks: no
   * execution of the operation can have run before it existed, so an account unchanged since the snapshot cannot
   * hold the leg yet, and every change bumps the version. The legs go in order in one ordered batch, shared with
   * concurrent operations, that stops at the first lost race (AccountBatches.swap: no leg lands before an earlier
   * one). A lost leg goes on from a later state its process's own swaps explain (AccountBatches.after), or else,
   * like a refused leg and a second leg on one account, through `apply`; then the batch resumes with the legs after
   * it. The lines applied here are written to the ledger and taken off `pending` together at the end; a crash before
   * that leaves them on their accounts' `pending`, as `apply` would, where a retry or the recovery job completes them.
   */
  async applyAll(
    operation: Pick<EconomyOperationRecord, '_id' | 'ref' | 'legs'>,
    snapshots: AccountSnapshots = new Map(),
  ): Promise<LegsOutcome> {
    const lines: LedgerLine[] = [];
    const batched: LedgerLine[] = [];
    // Accounts this operation changed, and each account's state known to hold none of its legs.
    const touched = new Set<string>();
    const current = new Map(snapshots);
    const at = new Date(this.clock.now());
    const keyOf = (index: number) => `${operation._id}:${index}`;
    let rebases = 0;
    let next = 0;
    while (next < operation.legs.length) {
      const planned: Swap[] = [];
      const inRun = new Set<string>();
      for (let index = next; index < operation.legs.length; index += 1) {
        const leg = operation.legs[index];
        const account = current.get(leg.account);
        if (!account || touched.has(leg.account) || inRun.has(leg.account)) break;
        let line: LedgerLine;
        try {
          line = nextLine(account, leg, keyOf(index), operation._id, operation.ref, at);
        } catch (error) {
          if (error instanceof LegRefused) break;
          throw error;
        }
        inRun.add(leg.account);
        planned.push({ account, set: balanceFields(line, account, leg), line });
      }
      let applied = NOT_TRIED;
      while (applied === NOT_TRIED) applied = planned.length > 0 ? await this.batches.swap(planned) : 0;
      for (const { account, line } of planned.slice(0, applied)) {
        touched.add(account._id);
        lines.push(line);
        batched.push(line);
      }
      next += applied;
      if (next === operation.legs.length) break;
      // A lost race: a later state of the account that only this process's swaps of other legs led to proves the
      // leg unapplied as well as the snapshot did (AccountBatches.after), so the batch goes on from there.
      const lost = planned.at(applied);
      const later = lost && rebases < MAX_REBASES ? this.batches.after(lost.account) : undefined;
      if (later) {
        current.set(later._id, later);
        rebases += 1;
        continue;
      }
      const leg = operation.legs[next];
      try {
        lines.push(await this.apply(leg, keyOf(next), operation._id, operation.ref));
      } catch (error) {
        if (error instanceof LegRefused && next === 0) return { refused: error };
        throw error;
      }
      touched.add(leg.account);
      next += 1;
    }
    await this.batches.record(batched);
    return { lines };
  }

  /** The accounts `ids` as they are now, read with concurrent callers' (missing ones read blank: AccountBatches). */
  snapshot(ids: string[]): Promise<AccountSnapshots> {
    return this.batches.read(ids);
  }

  /** Records that `key` was refused on `account` at version `v`; false when the account changed meanwhile. */
  private async recordRefusal(
    account: EconomyAccountRecord,
    key: string,
    error: LegRefused,
  ): Promise<boolean> {
    const refusal = { key, code: error.code, detail: error.detail ?? error.message };
    const swapped = await this.accounts.updateOne(
      { _id: account._id, v: account.v },
      { $inc: { v: 1 }, $push: { refused: { $each: [refusal], $slice: -REFUSALS_KEPT } } },
    );
    return swapped.modifiedCount === 1;
  }

  /** Writes `line` to the ledger (idempotent) and removes it from its account's pending list. */
  async record(line: LedgerLine): Promise<LedgerLine> {
    await this.ledger.updateOne({ key: line.key }, { $setOnInsert: line }, { upsert: true });
    await this.accounts.updateOne({ _id: line.account }, { $pull: { pending: { key: line.key } } });
    return line;
  }

  /** The account `id`, created at zero balances on first use (the hard issuer with the cap and its genesis line). */
  async read(id: string): Promise<EconomyAccountRecord> {
    const found = await this.accounts.findById(id).lean<EconomyAccountRecord>();
    if (found) return found;
    const genesis = id === SYSTEM_ACCOUNTS.issuer;
    const at = new Date(this.clock.now());
    const line: LedgerLine | undefined = genesis
      ? {
          key: 'genesis:hard',
          account: id,
          currency: 'hard',
          delta: HARD_SUPPLY_CAP,
          heldDelta: 0,
          balanceAfter: HARD_SUPPLY_CAP,
          heldAfter: 0,
          kind: 'genesis',
          ref: 'hard-supply-cap',
          op: 'genesis',
          at,
        }
      : undefined;
    await this.accounts.updateOne(
      { _id: id },
      {
        $setOnInsert: {
          owner: ownerOf(id),
          soft: 0,
          hard: genesis ? HARD_SUPPLY_CAP : 0,
          held: 0,
          holds: [],
          v: 0,
          pending: line ? [line] : [],
        },
      },
      { upsert: true },
    );
    if (line) await this.record(line);
    const created = await this.accounts.findById(id).lean<EconomyAccountRecord>();
    if (!created) throw new Error(`account ${id} vanished`);
    return created;
  }
}

/** The ledger line `leg` makes on `account`; LegRefused when it would overdraw or its hold is gone. */
function nextLine(
  account: EconomyAccountRecord,
  leg: OperationLeg,
  key: string,
  op: string,
  ref: string,
  at: Date,
): LedgerLine {
  const balance = account[leg.currency];
  let delta = leg.delta;
  let heldDelta = 0;
  if (leg.hold) {
    const hold = account.holds.find((h) => h.id === leg.hold?.id);
    if (leg.hold.action === 'place') heldDelta = -leg.delta;
    else if (!hold) throw new LegRefused(`No hold ${leg.hold.id} on ${account._id}`, 'HOLD_NOT_FOUND');
    else if (leg.hold.action === 'release') [delta, heldDelta] = [hold.amount, -hold.amount];
    else [delta, heldDelta] = [0, -hold.amount];
  }
  const balanceAfter = balance + delta;
  if (leg.floor === 'available' && delta < 0 && balanceAfter < 0) {
    const cap = account._id === SYSTEM_ACCOUNTS.issuer && leg.currency === 'hard';
    throw new LegRefused(
      cap
        ? `Granting ${-delta} hard currency would pass the ${HARD_SUPPLY_CAP} supply cap (${balance} left)`
        : `The spendable ${leg.currency} balance ${balance} does not cover ${-delta}`,
      cap ? 'SUPPLY_CAP_REACHED' : 'INSUFFICIENT_FUNDS',
    );
  }
  return {
    key,
    account: account._id,
    currency: leg.currency,
    delta,
    heldDelta,
    balanceAfter,
    heldAfter: account.held + heldDelta,
    kind: leg.kind,
    ref,
    op,
    at,
  };
}

/** The `$set` of a leg: the new balance, and for hold legs the held total and the holds list. */
function balanceFields(line: LedgerLine, account: EconomyAccountRecord, leg: OperationLeg) {
  const fields: Record<string, unknown> = { [line.currency]: line.balanceAfter };
  if (!leg.hold) return fields;
  fields.held = line.heldAfter;
  const others = account.holds.filter((h) => h.id !== leg.hold?.id);
  fields.holds =
    leg.hold.action === 'place'
      ? [...others, { id: leg.hold.id, amount: -leg.delta, expiresAt: leg.hold.expiresAt }]
      : others;
  return fields;
}
