import { createHash } from 'node:crypto';
import { extractiveSummary } from '../../../ai/memory/extractiveSummary';
import type { MemoryDocument } from '../../../models/Memory';
import type { GraphScope } from '../../../models/GraphEntity';
import { contentHash, type MemoryKeeper } from '../memory/memoryKeeper';

/** Episodic memories read per batch, and most memories folded into a summary at once. */
const BATCH = 500;

/** A stable UUID for the archival summary of one (subject, session or day). */
function archiveId(subject: string, group: string): string {
  const hex = createHash('sha256').update(`archive\n${subject}\n${group}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const groupOf = (doc: MemoryDocument) =>
  doc.session_id ?? `day:${doc.occurred_at.toISOString().slice(0, 10)}`;

/**
 * Moves episodic memories older than the retention into archival summaries: per subject and session (or day, for
 * memories without a session), one archival memory holding an extractive summary; its graph mentions and facts
 * take over the sources', which are then removed from every store. Idempotent and resumable: the summary's id is
 * derived from (subject, group), its `summarizes` lists the sources already folded in, and sources are deleted
 * only after the summary is stored.
 */
export async function archiveOldSessions(keeper: MemoryKeeper, before: Date, pause: () => Promise<void>) {
  let archived = 0;
  let summaries = 0;
  let group: MemoryDocument[] = [];
  let groupKey = '';
  const flush = async () => {
    if (group.length === 0) return;
    await archiveGroup(keeper, group);
    archived += group.length;
    summaries++;
    group = [];
    await pause();
  };
  // One query sorted by subject and session, streamed: each group arrives together (a day's loose memories may
  // come in several parts, which fold into the same summary).
  const cursor = keeper.memories
    .find({ tier: 'episodic', occurred_at: { $lt: before } })
    .sort({ subject: 1, session_id: 1, _id: 1 })
    .batchSize(BATCH)
    .lean()
    .cursor();
  for await (const doc of cursor) {
    const key = `${doc.subject}\n${groupOf(doc)}`;
    if (key !== groupKey || group.length >= BATCH) await flush();
    groupKey = key;
    group.push(doc);
  }
  await flush();
  return { archived, summaries };
}

async function archiveGroup(keeper: MemoryKeeper, docs: MemoryDocument[]): Promise<void> {
  const { subject } = docs[0];
  const id = archiveId(subject, groupOf(docs[0]));
  const existing = await keeper.memories.findOne({ _id: id }).lean();
  const fresh = docs.filter((doc) => !existing?.summarizes.includes(doc._id));
  const ids = docs.map((doc) => doc._id);
  if (fresh.length > 0) {
    const content = extractiveSummary([
      ...(existing ? [existing.content] : []),
      ...fresh.map((doc) => doc.content),
    ]);
    const times = docs.map((doc) => doc.occurred_at.getTime());
    const { model, vector } = await keeper.embedContent(content);
    const now = new Date(keeper.options.clock.now());
    await keeper.memories.updateOne(
      { _id: id },
      {
        $set: { content, content_hash: contentHash(content), vector_model: model, last_seen: now },
        $setOnInsert: {
          subject,
          tier: 'archival',
          session_id: docs[0].session_id,
          kind: 'session.summary',
          tags: [...new Set(docs.flatMap((doc) => doc.tags))],
          created_at: now,
          consolidated_at: now,
        },
        $min: { occurred_at: new Date(Math.min(...times)) },
        $max: { importance: Math.max(...docs.map((doc) => doc.importance)) },
        $inc: { seen_count: fresh.length },
        $addToSet: { summarizes: { $each: fresh.map((doc) => doc._id) } },
      },
      { upsert: true },
    );
    await keeper.options.vectors.upsert(model, [{ id, subject, tier: 'archival', vector }]);
    keeper.text.add(subject, { id, tier: 'archival', content, hash: contentHash(content) });
  }
  await handOverGraph(keeper, subject as GraphScope, ids, id);
  await keeper.memories.deleteMany({ _id: { $in: ids }, subject, tier: 'episodic' });
  await keeper.options.vectors.delete(ids);
  keeper.text.remove(subject, ids);
}

/**
 * The summary takes over its sources' mentions and fact sources, so archiving changes no mention count; every
 * write is idempotent, so a run resumed after a crash here counts nothing twice.
 */
async function handOverGraph(keeper: MemoryKeeper, scope: GraphScope, ids: string[], summaryId: string) {
  const graph = keeper.options.graph;
  const mentions = await graph.mentions.find({ scope, sourceId: { $in: ids } }).lean();
  if (mentions.length > 0) {
    // One row per (entity, summary, original memory), written with $set: a resumed run rewrites the same rows.
    await graph.mentions.bulkWrite(
      mentions.map((m) => ({
        updateOne: {
          filter: { _id: `${m.entityId}@${summaryId}/${m.sourceId}` },
          update: {
            $set: {
              scope,
              entityId: m.entityId,
              sourceId: summaryId,
              documentId: m.documentId,
              count: m.count,
            },
          },
          upsert: true,
        },
      })),
      { ordered: false },
    );
    await graph.mentions.deleteMany({ _id: { $in: mentions.map((m) => m._id) } });
  }
  await graph.facts.updateMany(
    { scope, source_memory_ids: { $in: ids } },
    { $addToSet: { source_memory_ids: summaryId } },
  );
  await graph.facts.updateMany(
    { scope, source_memory_ids: { $in: ids } },
    { $pull: { source_memory_ids: { $in: ids } } },
  );
}
