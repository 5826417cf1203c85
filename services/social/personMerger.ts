import type { SocialEdgeRecord } from '../../models/SocialEdge';
import { edgeId } from './identities';
import type { SocialStore } from './socialStore';
import { decayedBase, type EdgeState } from './trust/trustRules';
import { stateOf, updateEdge } from './trust/trustLedger';

/**
 * Folds person `old` (an identity that was its own person until it was linked) into person `into`: its edges are
 * re-keyed (an edge both persons had toward the same other is combined, one between the two is dropped) and its
 * interactions (with their topic terms) are moved. The trust history of the old edges stays under their old ids.
 *
 * Safe to run again after a crash at any step: each edge is combined into its new place at most once (the new edge
 * keeps `merge:<old edge id>` among its applied ids) before the old one is deleted, and the rest are plain moves.
 * The link that asks for it marks the identity `merge_pending` first (links/identityLinker.ts), so a half-done
 * merge is finished by a relink or by the recovery pass.
 */
export async function mergePerson(store: SocialStore, old: string, into: string): Promise<void> {
  const edges = await store.edges.find({ $or: [{ from: old }, { to: old }] }).lean<SocialEdgeRecord[]>();
  for (const edge of edges) {
    const from = edge.from === old ? into : edge.from;
    const to = edge.to === old ? into : edge.to;
    if (from !== to) await moveEdge(store, edge, from, to);
    await store.edges.deleteOne({ _id: edge._id });
  }
  await store.interactions.updateMany({ actorPerson: old }, { $set: { actorPerson: into } });
  await store.interactions.updateMany({ targetPerson: old }, { $set: { targetPerson: into } });
}

/** Copies an edge under its new persons, combining it with an edge already there (once per old edge). */
async function moveEdge(store: SocialStore, edge: SocialEdgeRecord, from: string, to: string): Promise<void> {
  const moving = stateOf(edge);
  await updateEdge(
    store,
    from,
    to,
    (existing, now) =>
      existing.interactions === 0 && !hasMarks(existing) ? moving : combine(existing, moving, now),
    'link:merge',
    `merge:${edge._id}`,
  );
  if (edge.reportedAt)
    await store.edges.updateOne({ _id: edgeId(from, to) }, { $max: { reportedAt: edge.reportedAt } });
}

const hasMarks = (state: EdgeState) => Boolean(state.marks.fren || state.marks.foe || state.marks.block);

/** Two views of the same person: bases averaged by interactions, marks kept (the existing edge's win), counts added. */
function combine(existing: EdgeState, moving: EdgeState, now: number): EdgeState {
  const a = Math.max(1, existing.interactions);
  const b = Math.max(1, moving.interactions);
  const base =
    (decayedBase(existing.base, existing.decayedAt, now) * a +
      decayedBase(moving.base, moving.decayedAt, now) * b) /
    (a + b);
  return {
    ...existing,
    base,
    decayedAt: now,
    interactions: existing.interactions + moving.interactions,
    marks: {
      fren: existing.marks.fren ?? (existing.marks.foe ? null : moving.marks.fren) ?? null,
      foe: existing.marks.foe ?? (existing.marks.fren ? null : moving.marks.foe) ?? null,
      block: existing.marks.block ?? moving.marks.block ?? null,
    },
  };
}
