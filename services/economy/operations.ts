import { createHash } from 'node:crypto';
import type { Model } from 'mongoose';
import type { LedgerKind } from '../../models/EconomyAccount';
import type { EconomyOperationRecord, OperationError, OperationLeg } from '../../models/EconomyOperation';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { IdempotencyConflictError, replayedError } from './errors';
import { LegRefused, type LegApplier } from './legApplier';

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

  constructor(
    private readonly operations: Model<EconomyOperationRecord>,
    private readonly legs: LegApplier,
    private readonly clock: Clock,
  ) {}

  /** Runs `request` once; a repeat with the same id answers the first outcome (or its error). */
  async run(request: OperationRequest): Promise<OperationOutcome> {
    const requestHash = hashRequest(request.request);
    const now = new Date(this.clock.now());
    const created = await this.operations.updateOne(
      { _id: request.id },
      {
        $setOnInsert: {
          kind: request.kind,
          ref: request.ref,
          requestHash,
          legs: request.legs,
          state: 'pending',
          balancesAfter: [],
          meta: request.meta ?? {},
          createdAt: now,
          updatedAt: now,
        },
      },
      { upsert: true, timestamps: false },
    );
    const operation = await this.find(request.id);
    if (created.upsertedCount === 0) {
      if (operation.requestHash !== requestHash) throw new IdempotencyConflictError(request.id);
      const finished = operation.state === 'pending' ? await this.drive(operation) : operation;
      return { operation: throwIfFailed(finished), replayed: true };
    }
    return { operation: throwIfFailed(await this.drive(operation)), replayed: false };
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

  private async drive(operation: EconomyOperationRecord): Promise<EconomyOperationRecord> {
    const balances: number[] = [];
    for (const [index, leg] of operation.legs.entries()) {
      try {
        const line = await this.legs.apply(leg, `${operation._id}:${index}`, operation._id, operation.ref);
        balances.push(line.balanceAfter);
      } catch (error) {
        if (!(error instanceof LegRefused) || index > 0) throw error;
        return this.finish(operation._id, { state: 'failed', error: errorBody(error) });
      }
    }
    const done = await this.finish(operation._id, { state: 'done', balancesAfter: balances });
    if (done.state === 'done') for (const listener of this.doneListeners) listener(done);
    return done;
  }

  /** Moves a pending operation to its final state (the first finisher wins; the record is then read back). */
  private async finish(
    id: string,
    fields: Partial<Pick<EconomyOperationRecord, 'state' | 'error' | 'balancesAfter'>>,
  ): Promise<EconomyOperationRecord> {
    await this.operations.updateOne(
      { _id: id, state: 'pending' },
      { $set: { ...fields, updatedAt: new Date(this.clock.now()) } },
      { timestamps: false },
    );
    return this.find(id);
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

/** A failed operation rethrows its stored error (for the first call and every replay alike). */
function throwIfFailed(operation: EconomyOperationRecord): EconomyOperationRecord {
  if (operation.state === 'failed' && operation.error) throw replayedError(operation.error);
  return operation;
}
