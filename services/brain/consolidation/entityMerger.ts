import type { GraphEntityRecord, GraphScope } from '../../../models/GraphEntity';
import type { SubjectGraph } from '../graph/subjectGraph';

/** Most entities of one scope compared pairwise for near-equal names (beyond it only exact-key buckets merge). */
const MAX_PAIRWISE = 2000;

const compact = (key: string) => key.replace(/[^\p{L}\p{N}]/gu, '');

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Whether two entity keys name the same thing: equal once punctuation and spaces are dropped ("Hill-town",
 * "Hilltown"), one edit apart when both are 6+ characters long ("Riverside", "Riversid"), or a single first name
 * that is the first word of the other ("ann", "ann smith").
 */
export function sameEntity(a: string, b: string): boolean {
  if (compact(a) === compact(b)) return true;
  if (a.length >= 6 && b.length >= 6 && editDistanceAtMostOne(a, b)) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return !short.includes(' ') && long.startsWith(`${short} `) && short.length >= 3;
}

/** Recounts mention counts from the mention rows and merges near-equal entities; answers counts. */
export async function consolidateEntities(
  graph: SubjectGraph,
  scope: GraphScope,
): Promise<{ recounted: number; merged: number }> {
  const mentions = await graph.mentions.find({ scope }, { entityId: 1, count: 1 }).lean();
  const totals = new Map<string, number>();
  for (const m of mentions) totals.set(m.entityId, (totals.get(m.entityId) ?? 0) + m.count);
  const entities = await graph.entities.find({ scope }).sort({ mention_count: -1, _id: 1 }).lean();
  let recounted = 0;
  for (const entity of entities) {
    const total = totals.get(entity._id) ?? 0;
    if (total === entity.mention_count) continue;
    await graph.entities.updateOne({ _id: entity._id }, { $set: { mention_count: total } });
    entity.mention_count = total;
    recounted++;
  }
  let merged = 0;
  const kept: GraphEntityRecord[] = [];
  const pairwise = entities.length <= MAX_PAIRWISE;
  for (const entity of [...entities].sort(
    (a, b) => b.mention_count - a.mention_count || b.name.length - a.name.length,
  )) {
    const into = kept.find((k) =>
      pairwise ? sameEntity(k.key, entity.key) : compact(k.key) === compact(entity.key),
    );
    if (!into) {
      kept.push(entity);
      continue;
    }
    await mergeEntity(graph, entity, into);
    into.mention_count += entity.mention_count;
    merged++;
  }
  return { recounted, merged };
}

/** Moves `from`'s mentions, relations and facts to `into`, records its names as aliases and deletes it. */
async function mergeEntity(
  graph: SubjectGraph,
  from: GraphEntityRecord,
  into: GraphEntityRecord,
): Promise<void> {
  const mentions = await graph.mentions.find({ entityId: from._id }).lean();
  for (const m of mentions) {
    await graph.mentions.updateOne(
      { _id: `${into._id}@${m.sourceId}` },
      {
        $setOnInsert: { scope: m.scope, entityId: into._id, sourceId: m.sourceId, documentId: m.documentId },
        $inc: { count: m.count },
      },
      { upsert: true },
    );
  }
  await graph.mentions.deleteMany({ entityId: from._id });
  await graph.facts.updateMany({ subject: from._id }, { $set: { subject: into._id } });
  await graph.facts.updateMany({ object: from._id }, { $set: { object: into._id } });
  await graph.relations.updateMany({ from: from._id }, { $set: { from: into._id } });
  await graph.relations.updateMany({ to: from._id }, { $set: { to: into._id } });
  await graph.entities.updateOne(
    { _id: into._id },
    {
      $addToSet: { aliases: { $each: [from.name, ...from.aliases] } },
      $inc: { mention_count: from.mention_count },
      $min: { first_seen: from.first_seen },
      $max: { last_seen: from.last_seen },
    },
  );
  await graph.entities.deleteOne({ _id: from._id });
}
