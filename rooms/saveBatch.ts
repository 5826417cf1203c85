import type { PlayerSession } from './eventDelivery';
import type { CharacterField, CharacterRecord, PlayerStore } from './persistence';
import { recordFromPlayer } from './playerRecords';
import { type SavedFields, recordChanges } from './savedFields';

/** A save asked for and not written yet: settled once the batch holding it is durable. */
interface Asked {
  session: PlayerSession;
  /** The save's promise as the session's queue holds it (session.saving), while it can still take later changes. */
  tail?: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/** Records written in one call of the store at most (a larger queue is written in several batches, in order). */
const MAX_BATCH = 500;

/**
 * Group commit of an area room's character saves. A save is still durable before it resolves (rooms await it before
 * acknowledging an action, so even a `kill -9` loses no acknowledged progress: services/mud/README.md), but:
 *
 * - saves asked for in the same turn of the event loop, or while the previous batch was being written, go to the
 *   store together (`PlayerStore.saveMany`: at most two MongoDB round trips for the batch instead of two per save);
 * - a player's record is taken when their batch is written, not when the save was asked for, and a save asked for
 *   while an earlier one of the same player still waits to be written joins it (a player who acts twice, or is
 *   autosaved, before the write is saved once, with the latest state, and both callers wait for that write).
 *
 * - a save writes only the top-level fields of the character that changed since the player's last durable save
 *   (`session.saved`, rooms/savedFields.ts), and a player with no change writes nothing: their last save, settled
 *   before this one was queued, already holds it, so the save resolves at once. A failed save forgets the snapshot
 *   (what the store holds is then unknown), so the next one writes the whole record.
 *
 * A player's saves stay in order behind the work queued on `session.saving` (outside changes: rooms/outsideChanges.ts),
 * so a record is never taken halfway through applying a change from outside, and the economy sees each coin once.
 * The wait is bounded by one batch in flight: a save waits at most for the batch being written and its own.
 * `drain` waits for every save asked for so far (the room awaits it when it is disposed: a clean shutdown loses
 * nothing).
 */
export class SaveBatch {
  private queue: Asked[] = [];
  /** Per player, the save that can still take later changes (asked for, record not yet taken). */
  private readonly open = new Map<PlayerSession, Asked>();
  private readonly unsettled = new Set<Promise<void>>();
  private writing = false;
  private scheduled = false;

  constructor(
    private readonly store: PlayerStore,
    private readonly now: () => number,
  ) {}

  /** Saves the player's state as it is when their batch is written; resolves once that is durable. */
  persist(session: PlayerSession): Promise<void> {
    const open = this.open.get(session);
    if (open?.tail && session.saving === open.tail) return open.tail;
    let asked!: Asked;
    const written = new Promise<void>((resolve, reject) => (asked = { session, resolve, reject }));
    const tail = session.saving
      .catch(() => undefined)
      .then(() => {
        this.queue.push(asked);
        this.schedule();
        return written;
      });
    asked.tail = tail;
    session.saving = tail;
    this.open.set(session, asked);
    this.unsettled.add(tail);
    const settled = () => this.unsettled.delete(tail);
    tail.then(settled, settled);
    return tail;
  }

  /** Waits until every save asked for so far is written (or failed). */
  async drain(): Promise<void> {
    while (this.unsettled.size > 0) await Promise.allSettled([...this.unsettled]);
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.writing = true;
      void this.writeAll();
    });
  }

  /** Writes batches until the queue is empty; `writing` drops in the same turn as the last look at the queue. */
  private async writeAll(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.write(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Asked[]): Promise<void> {
    const now = this.now();
    const toWrite: Array<{ asked: Asked; record: CharacterRecord; fields: SavedFields }> = [];
    const changed: Array<CharacterField[] | undefined> = [];
    for (const asked of batch) {
      if (this.open.get(asked.session) === asked) this.open.delete(asked.session);
      const record = recordFromPlayer(asked.session.state, asked.session.journal, now);
      const changes = recordChanges(record, asked.session.saved);
      // Nothing changed since the last durable save (settled before this save was queued): nothing to write.
      if (changes.changed?.length === 0) asked.resolve();
      else {
        toWrite.push({ asked, record, fields: changes.fields });
        changed.push(changes.changed);
      }
    }
    if (toWrite.length === 0) return;
    const records = toWrite.map((entry) => entry.record);
    let errors: Array<Error | undefined>;
    try {
      errors = this.store.saveMany
        ? await this.store.saveMany(records, changed)
        : await Promise.all(records.map((record) => this.store.save(record).then(() => undefined, asError)));
    } catch (error) {
      errors = records.map(() => asError(error));
    }
    toWrite.forEach(({ asked, fields }, i) => {
      const error = errors[i];
      asked.session.saved = error ? undefined : fields;
      if (error) asked.reject(error);
      else asked.resolve();
    });
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
