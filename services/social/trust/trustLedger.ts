import type { SocialEdgeRecord } from '../../../models/SocialEdge';
import type { InteractionEffect } from '../../../models/SocialInteraction';
import type { SocialTrustChangeRecord } from '../../../models/SocialTrustChange';
import { edgeId } from '../identities';
import { socialError } from '../errors';
import { chunksOf, isDuplicateKeyError } from '../storeQueries';
import {
  PENDING_HISTORY,
  flushHistory,
  pendingAfter,
  recordedEffects,
  type EdgeWithHistory,
  type HistoryEntry,
  type WrittenEdge,
} from './edgeHistory';
import type { SocialStore } from '../socialStore';
import {
  applyInteraction,
  newEdgeState,
  trustScore,
  type EdgeState,
  type InteractionKind,
} from './trustRules';

/** One interaction's effect on one edge: `observer`'s trust in `subject`. */
export interface EdgeInteraction {
  /** The interaction's id (an edge remembers the last ids applied, so a re-run applies each once). */
  id: string;
  observer: string;
  subject: string;
  kind: InteractionKind;
  sentiment?: number;
}

/** How many interaction ids an edge remembers. */
const APPLIED_KEPT = 64;
/** Attempts at writing an edge other writers keep changing. */
const MAX_ATTEMPTS = 8;

/** The rules' state of a stored edge. */
export function stateOf(edge: SocialEdgeRecord): EdgeState {
  return {
    base: edge.base,
    decayedAt: edge.decayedAt,
    day: edge.day,
    dayGain: edge.dayGain,
    dayLoss: edge.dayLoss,
    repeats: edge.repeats ?? {},
    marks: edge.marks ?? {},
    interactions: edge.interactions,
  };
}

/**
 * What one edge write changes, and the filter that makes it conditional on the version read. The write carries the
 * history entries of its change (`trust/edgeHistory.ts`): trust and its history land in one document write.
 */
function edgeWrite(
  id: string,
  found: EdgeWithHistory | undefined,
  state: EdgeState,
  applied: string[],
  now: Date,
  history: HistoryEntry[],
  extra: Partial<SocialEdgeRecord> = {},
) {
  const [from, to] = id.split('>');
  const version = found?.version ?? 0;
  const fields = {
    ...state,
    reportedAt: extra.reportedAt ?? found?.reportedAt ?? null,
    from,
    to,
    applied: applied.slice(-APPLIED_KEPT),
    version: version + 1,
    updatedAt: now,
    [PENDING_HISTORY]: pendingAfter(found, history),
  };
  // A new edge is inserted (a concurrent insert fails on its _id: a lost race, read again and retried).
  if (!found) return { insertOne: { document: { _id: id, ...fields, createdAt: now } } };
  return { updateOne: { filter: { _id: id, version }, update: { $set: fields } } };
}

/**
 * Applies interactions to their edges in order, each edge read once and written once per attempt with a write
 * conditional on the version it read; edges another writer changed meanwhile are read and applied again. Answers
 * each interaction's effect and writes the trust history. Interactions an edge already applied are skipped and
 * answer the effect recorded when they were (a retry after a crash between the edge and the interaction's record).
 */
export async function applyEdgeInteractions(
  store: SocialStore,
  items: EdgeInteraction[],
): Promise<Map<string, InteractionEffect>> {
  const effects = new Map<string, InteractionEffect>();
  const written: WrittenEdge[] = [];
  const alreadyApplied: { itemId: string; edge: EdgeWithHistory }[] = [];
  let pending = groupByEdge(items);
  for (let attempt = 0; pending.size > 0; attempt++) {
    if (attempt >= MAX_ATTEMPTS)
      throw socialError('SOCIAL_BUSY', 'An edge keeps changing; retry the request');
    const nowMs = store.clock.now();
    const now = new Date(nowMs);
    const found = await loadEdges(store, [...pending.keys()]);
    const writes = [];
    const finalStates = new Map<string, EdgeState>();
    const attemptEffects = new Map<
      string,
      { itemId: string; effect: InteractionEffect; change: SocialTrustChangeRecord }[]
    >();
    for (const [id, group] of pending) {
      const edge = found.get(id);
      let state = edge ? stateOf(edge) : newEdgeState(nowMs);
      const applied = [...(edge?.applied ?? [])];
      const results: { itemId: string; effect: InteractionEffect; change: SocialTrustChangeRecord }[] = [];
      let reportedAt = edge?.reportedAt ?? null;
      for (const item of group) {
        if (applied.includes(item.id)) {
          if (edge) alreadyApplied.push({ itemId: item.id, edge });
          continue;
        }
        const next = applyInteraction(state, item.kind, item.sentiment, nowMs);
        state = next.state;
        applied.push(item.id);
        if (item.kind === 'report') reportedAt = now;
        const { change } = next;
        results.push({
          itemId: item.id,
          effect: {
            observer: item.observer,
            subject: item.subject,
            applied: round(change.applied),
            trust_after: change.after,
            capped: change.capped,
          },
          change: {
            _id: `${item.id}@${id}`,
            edge: id,
            observer: item.observer,
            subject: item.subject,
            at: now,
            cause: `interaction:${item.kind}`,
            applied: round(change.applied),
            before: change.before,
            after: change.after,
          },
        });
      }
      if (results.length === 0) {
        for (const item of group) effects.set(item.id, currentEffect(item, state, nowMs));
        // A retry after a crash before the history was copied: copy it now.
        const held = edge?.[PENDING_HISTORY] ?? [];
        if (edge && held.length > 0) written.push({ id, version: edge.version, pending: held });
        continue;
      }
      attemptEffects.set(id, results);
      finalStates.set(id, state);
      const entries = results.map(({ change, effect }) => ({ ...change, capped: effect.capped }));
      writes.push(edgeWrite(id, edge, state, applied, now, entries, { reportedAt }));
    }
    const allLanded = writes.length > 0 ? await writeEdges(store, writes) : true;
    // Every write matched its version: no need to read them back. Otherwise see which edges got ours.
    const landed = allLanded ? null : await loadEdges(store, [...attemptEffects.keys()]);
    const retry = new Map<string, EdgeInteraction[]>();
    for (const [id, results] of attemptEffects) {
      const group = pending.get(id) as EdgeInteraction[];
      const last = group[group.length - 1].id;
      if (landed && !landed.get(id)?.applied.includes(last)) {
        retry.set(id, group);
        continue;
      }
      for (const { itemId, effect } of results) effects.set(itemId, effect);
      const edge = found.get(id);
      written.push({
        id,
        version: (edge?.version ?? 0) + 1,
        pending: pendingAfter(
          edge,
          results.map(({ change, effect }) => ({ ...change, capped: effect.capped })),
        ),
      });
      for (const item of group)
        if (!effects.has(item.id))
          effects.set(item.id, currentEffect(item, finalStates.get(id) as EdgeState, nowMs));
    }
    pending = retry;
  }
  await flushHistory(store, written);
  // Interactions applied before (a crash after the edge write): the effect they had, not "nothing applied".
  if (alreadyApplied.length > 0)
    for (const [itemId, effect] of await recordedEffects(store, alreadyApplied)) effects.set(itemId, effect);
  return effects;
}

/**
 * Changes one edge with `change` (a pure function of its state), conditionally on the version read, retrying
 * when another writer got there first. Answers the trust before and after, and the new state. With `once` (an id
 * kept in the edge's `applied` list with the change), a change the edge has applied already changes nothing.
 */
export async function updateEdge(
  store: SocialStore,
  observer: string,
  subject: string,
  change: (state: EdgeState, now: number) => EdgeState,
  cause: string,
  once?: string,
): Promise<{ before: number; after: number; state: EdgeState }> {
  const id = edgeId(observer, subject);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const nowMs = store.clock.now();
    const now = new Date(nowMs);
    const edge = (await loadEdges(store, [id])).get(id);
    const state = edge ? stateOf(edge) : newEdgeState(nowMs);
    if (once && edge?.applied.includes(once)) {
      // Applied already (a re-run after a crash): nothing changes.
      const score = trustScore(state, nowMs);
      return { before: score, after: score, state };
    }
    const next = change(state, nowMs);
    const before = trustScore(state, nowMs);
    const after = trustScore(next, nowMs);
    const version = (edge?.version ?? 0) + 1;
    const entry: HistoryEntry = {
      // The edge's new version names the change: unique, however fast the same change is repeated.
      _id: `${id}#v${String(version).padStart(10, '0')}`,
      edge: id,
      observer,
      subject,
      at: now,
      cause,
      applied: after - before,
      before,
      after,
    };
    const result = await store.edges.collection
      .bulkWrite([edgeWrite(id, edge, next, appliedWith(edge?.applied ?? [], once), now, [entry])] as never)
      .catch((error: unknown) => (isDuplicateKeyError(error) ? null : Promise.reject(error)));
    if (!result || result.matchedCount + result.insertedCount === 0) continue;
    await flushHistory(store, [{ id, version, pending: pendingAfter(edge, [entry]) }]);
    return { before, after, state: next };
  }
  throw socialError('SOCIAL_BUSY', 'The relationship keeps changing; retry the request');
}

/** An edge's applied ids with `once` added (when given). */
const appliedWith = (applied: string[], once: string | undefined) => (once ? [...applied, once] : applied);

/** Runs the edge writes; true when each one matched (or inserted) its edge, false when some lost a race. */
async function writeEdges(store: SocialStore, writes: ReturnType<typeof edgeWrite>[]): Promise<boolean> {
  const result = await store.edges.collection
    .bulkWrite(writes as never, { ordered: false })
    .catch((error: unknown) => (isDuplicateKeyError(error) ? null : Promise.reject(error)));
  return result !== null && result.matchedCount + result.insertedCount === writes.length;
}

/** The stored edges of `ids`. */
export async function loadEdges(store: SocialStore, ids: string[]): Promise<Map<string, EdgeWithHistory>> {
  const edges = await Promise.all(
    chunksOf(ids).map((chunk) =>
      store.edges.collection.find<EdgeWithHistory>({ _id: { $in: chunk } } as never).toArray(),
    ),
  );
  return new Map(edges.flat().map((edge) => [edge._id, edge]));
}

function groupByEdge(items: EdgeInteraction[]): Map<string, EdgeInteraction[]> {
  const groups = new Map<string, EdgeInteraction[]>();
  for (const item of items) {
    const id = edgeId(item.observer, item.subject);
    const group = groups.get(id);
    if (group) group.push(item);
    else groups.set(id, [item]);
  }
  return groups;
}

/** The effect reported for an interaction an edge had already applied (a re-run): nothing more applied. */
function currentEffect(item: EdgeInteraction, state: EdgeState, now: number): InteractionEffect {
  return {
    observer: item.observer,
    subject: item.subject,
    applied: 0,
    trust_after: trustScore(state, now),
    capped: false,
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
