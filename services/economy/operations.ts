import { createHash } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { Model } from 'mongoose';
import type { LedgerKind } from '../../models/EconomyAccount';
import type { EconomyOperationRecord, OperationError, OperationLeg } from '../../models/EconomyOperation';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { idempotencyConflict, replayedError } from './errors';
import type { AccountSnapshots, LegApplier } from './legApplier';
import { insertOrFind, nativeCollection, setIfMatches } from '../../platform/stores/nativeCollection';

/** What a caller asks for: the operation's id (scope + idempotency key), the request it hashes, and its legs. */
export interface OperationRequest {
  /** Unique per intended operation, e.g. `transfer:<userId>:<idempotency key>`. */
  id: string;
  kind: LedgerKind;
  ref: string;
  /** The request body the key was used with (hashed: another body under the same key is a conflict). */
  request: unknown;
  legs: OperationLeg[];
  meta?: Record<string, unknown>;
}

/** A finished operation, and whether this call only replayed an earlier one. */
export interface OperationOutcome {
  operation: EconomyOperationRecord;
  replayed: boolean;
}

/** Operations left pending this long are taken over by the recovery job (their process is presumed gone). */
export const RECOVERY_AFTER_MS = 30_000;

/**
 * Runs multi-leg money operations (transfers, grants, holds, decay, purchases) as idempotent sagas without
 * multi-document transactions. The operation document is written first (its `_id` is the idempotency record);
 * legs are applied in order by the LegApplier, each exactly once; only the first leg can be refused (funds, cap,
 * missing hold), and then nothing changed and the operation is `failed` with the error replayed to retries. An
 * operation interrupted after its first leg stays `pending` and is completed forwards by `resume` (the recovery
 * job, or a retry with the same key), so coins are never created or lost by a crash.
 */
export class OperationRunner {
  private readonly doneListeners = new Set<(operation: EconomyOperationRecord) => void>();
  private readonly rows: Collection<EconomyOperationRecord>;

  constructor(
    private readonly operations: Model<EconomyOperationRecord>,
    private readonly legs: LegApplier,
    private readonly clock: Clock,
  ) {
    this.rows = nativeCollection(operations);
  }

  /** Runs `request` once; a repeat with the same id answers the first outcome (or its error). */
  async run(request: OperationRequest): Promise<OperationOutcome> {
    const requestHash = hashRequest(request.request);
    const now = new Date(this.clock.now());
    // Read before the operation can exist: what lets a first execution skip the per-leg checks (LegApplier.applyAll).
    const snapshots = await this.legs.snapshot(request.legs.map((leg) => leg.account));
    const { stored: operation, created } = await insertOrFind(this.rows, {
      _id: request.id,
      kind: request.kind,
      ref: request.ref,
      requestHash,
      legs: request.legs,
      state: 'pending',
      balancesAfter: [],
      meta: request.meta ?? {},
      createdAt: now,
      updatedAt: now,
    });
    if (!created) {
      if (operation.requestHash !== requestHash) throw idempotencyConflict(request.id);
      const finished = operation.state === 'pending' ? await this.drive(operation) : operation;
      return { operation: throwIfFailed(finished, true), replayed: true };
    }
    return { operation: throwIfFailed(await this.drive(operation, snapshots), false), replayed: false };
  }

  /**
   * Calls `listener` with every operation this process completes (first run, retry or recovery alike), after its
   * coins moved. A listener must not throw; it runs after the operation is done, so nothing it does can undo it.
   */
  onDone(listener: (operation: EconomyOperationRecord) => void): () => void {
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
  }

  /** Completes an interrupted operation (recovery job); answers its final record. */
  async resume(id: string): Promise<EconomyOperationRecord> {
    const operation = await this.find(id);
    return operation.state === 'pending' ? this.drive(operation) : operation;
  }

  /** Ids of operations pending for longer than RECOVERY_AFTER_MS. */
  async stale(limit = 500): Promise<string[]> {
    const before = new Date(this.clock.now() - RECOVERY_AFTER_MS);
    const rows = await this.operations
      .find({ state: 'pending', updatedAt: { $lt: before } }, { _id: 1 })
      .limit(limit)
      .lean();
    return rows.map((row) => row._id);
  }

  /** Applies the legs (`snapshots` only for an operation this call created) and records the final state. */
  private async drive(
    operation: EconomyOperationRecord,
    snapshots?: AccountSnapshots,
  ): Promise<EconomyOperationRecord> {
    const outcome = await this.legs.applyAll(operation, snapshots);
    if ('refused' in outcome)
      return this.finish(operation, { state: 'failed', error: errorBody(outcome.refused) });
    const balancesAfter = outcome.lines.map((line) => line.balanceAfter);
    const done = await this.finish(operation, { state: 'done', balancesAfter });
    if (done.state === 'done') for (const listener of this.doneListeners) listener(done);
    return done;
  }

  /** Moves a pending operation to its final state (the first finisher wins) and answers the stored record. */
  private async finish(
    operation: EconomyOperationRecord,
    fields: Partial<Pick<EconomyOperationRecord, 'state' | 'error' | 'balancesAfter'>>,
  ): Promise<EconomyOperationRecord> {
    const final = { ...fields, updatedAt: new Date(this.clock.now()) };
    // When every write of the batch moved its operation, this one is stored as `operation` plus `final`.
    const moved = await setIfMatches(this.rows, {
      filter: { _id: operation._id, state: 'pending' },
      set: final,
    });
    if (moved) return { ...operation, ...final };
    return this.find(operation._id);
  }

  private async find(id: string): Promise<EconomyOperationRecord> {
    const operation = await this.operations.findById(id).lean<EconomyOperationRecord>();
    if (!operation) throw new Error(`operation ${id} vanished`);
    return operation;
  }
}

/** sha256 of a canonical JSON rendering (object keys sorted) of `value`. */
export function hashRequest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function errorBody(error: AppError): OperationError {
  return { status: error.status, code: error.code, detail: error.detail ?? error.message };
}

/** A failed operation rethrows its stored error (for the first call and every replay alike; a replay says so). */
function throwIfFailed(operation: EconomyOperationRecord, replayed: boolean): EconomyOperationRecord {
  if (operation.state === 'failed' && operation.error) throw replayedError(operation.error, replayed);
  return operation;
}
