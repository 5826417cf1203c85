import type { SocialEdgeRecord } from '../../../models/SocialEdge';
import type { InteractionEffect } from '../../../models/SocialInteraction';
import type { SocialTrustChangeRecord } from '../../../models/SocialTrustChange';
import type { SocialStore } from '../socialStore';
import { chunksOf, ignoreDuplicateKeys } from '../storeQueries';

/**
 * The trust history's outbox on the edge itself. A trust change is one write of one edge document: the new state,
 * and the history entries of that change in `pendingHistory`, so the trust and its history land together or not at
 * all. The entries are then copied into the history collection (idempotent: an entry's `_id` is the cause's and the
 * edge's) and cleared from the edge. A process killed in between leaves them on the edge: the next write of that
 * edge carries them over, a retry of the interaction reads its effect from them, and the recovery pass
 * (`flushPendingHistory`, at start and every minute) copies and clears them. Nothing here changes trust.
 */
export const PENDING_HISTORY = 'pendingHistory';

/** A history entry with the `capped` flag of the effect it had (so a retry can answer that effect whole). */
export type HistoryEntry = SocialTrustChangeRecord & { capped?: boolean };

/** An edge as stored, with its outbox. */
export type EdgeWithHistory = SocialEdgeRecord & { [PENDING_HISTORY]?: HistoryEntry[] };

/** The outbox an edge write sets: what the edge still holds, then the new entries. */
export function pendingAfter(edge: EdgeWithHistory | undefined, entries: HistoryEntry[]): HistoryEntry[] {
  const held = edge?.[PENDING_HISTORY] ?? [];
  return held.length === 0 ? entries : [...held, ...entries];
}

/** One written edge: its id, the version the write gave it and the outbox it holds. */
export interface WrittenEdge {
  id: string;
  version: number;
  pending: HistoryEntry[];
}

/**
 * Copies written edges' outboxes into the history collection, then clears each outbox unless the edge changed
 * meanwhile (its next writer carried the entries over and copies them itself).
 */
export async function flushHistory(store: SocialStore, written: WrittenEdge[]): Promise<void> {
  const entries = written.flatMap((edge) => edge.pending);
  if (entries.length === 0) return;
  await store.changes.collection.insertMany(entries as never, { ordered: false }).catch(ignoreDuplicateKeys);
  await store.edges.collection.bulkWrite(
    written
      .filter((edge) => edge.pending.length > 0)
      .map((edge) => ({
        updateOne: {
          filter: { _id: edge.id, version: edge.version },
          update: { $unset: { [PENDING_HISTORY]: '' } },
        },
      })) as never,
    { ordered: false },
  );
}

/** The effect an entry records. */
export function effectOf(entry: HistoryEntry): InteractionEffect {
  return {
    observer: entry.observer,
    subject: entry.subject,
    applied: entry.applied,
    trust_after: entry.after,
    capped: entry.capped ?? false,
  };
}

/**
 * The recorded effects of interactions their edges had already applied (a retry after a crash): from the edge's
 * outbox, else from the history collection. Keyed by interaction id; an interaction with no entry is absent.
 */
export async function recordedEffects(
  store: SocialStore,
  applied: { itemId: string; edge: EdgeWithHistory }[],
): Promise<Map<string, InteractionEffect>> {
  const effects = new Map<string, InteractionEffect>();
  const missing = new Map<string, string>();
  for (const { itemId, edge } of applied) {
    const entryId = `${itemId}@${edge._id}`;
    const entry = edge[PENDING_HISTORY]?.find((e) => e._id === entryId);
    if (entry) effects.set(itemId, effectOf(entry));
    else missing.set(entryId, itemId);
  }
  for (const chunk of chunksOf([...missing.keys()])) {
    const found = await store.changes.collection
      .find<HistoryEntry>({ _id: { $in: chunk } } as never)
      .toArray();
    for (const entry of found) effects.set(missing.get(entry._id) as string, effectOf(entry));
  }
  return effects;
}

/** Copies and clears the outboxes a crash left on edges (oldest first, at most `limit`); answers how many edges. */
export async function flushPendingHistory(store: SocialStore, limit = 1000): Promise<number> {
  const edges = await store.edges.collection
    .find<EdgeWithHistory>({ [PENDING_HISTORY]: { $exists: true } } as never)
    .sort({ updatedAt: 1 })
    .limit(limit)
    .toArray();
  await flushHistory(
    store,
    edges.map((edge) => ({ id: edge._id, version: edge.version, pending: edge[PENDING_HISTORY] ?? [] })),
  );
  return edges.length;
}
