import { createHash } from 'node:crypto';
import { extractDecisions } from '../../../ai/memory/decisionPatterns';
import { isSingleValued } from '../../../ai/memory/factPatterns';
import type { GraphScope } from '../../../models/GraphEntity';
import type { StoredMemoryTier } from '../../../models/Memory';
import type { ConsolidationStep } from '../../../models/ConsolidationRun';
import type { DecisionLog } from '../decisions/decisionLog';
import type { SubjectGraph } from '../graph/subjectGraph';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import { consolidateEntities } from './entityMerger';
import { archiveOldSessions } from './sessionArchiver';
import { binaryFields } from '../decisions/decisionText';

/** Memories read per batch; the run yields to the event loop between batches. */
const BATCH = 500;

/** What the steps work on. `cutoff`: memories created after the run started wait for the next run. */
export interface StepContext {
  memory: MemoryKeeper;
  decisions: DecisionLog;
  graph: SubjectGraph;
  now: Date;
  cutoff: Date;
  episodicRetentionDays: number;
  auditRetentionDays: number;
  pause: () => Promise<void>;
  /** Deletes consolidation runs and memory audit records older than a time; answers how many. */
  purgeRecords: (before: Date) => Promise<number>;
}

/** The id of the decision extracted from a memory's sentence: a second run finds it and inserts nothing. */
const extractedId = (memoryId: string, sentence: string) =>
  `extracted-${createHash('sha256').update(`${memoryId}\n${sentence}`).digest('hex').slice(0, 32)}`;

const unconsolidated = (ctx: StepContext) => ({
  tier: { $in: ['episodic', 'semantic'] as StoredMemoryTier[] },
  consolidated_at: null,
  created_at: { $lte: ctx.cutoff },
});

/** Step 1: decisions stated in memories not consolidated yet (offline patterns). */
async function extractDecisionsStep(ctx: StepContext): Promise<number> {
  let created = 0;
  let read = 0;
  // One query streamed in batches: re-querying per batch would sort the whole remainder each time.
  const cursor = ctx.memory.memories
    .find(unconsolidated(ctx), { content: 1 })
    .batchSize(BATCH)
    .lean()
    .cursor();
  for await (const doc of cursor) {
    for (const found of extractDecisions(doc.content)) {
      // A sentence the corpus would refuse as binary could never be published: it is not a decision to record.
      if (binaryFields({ ...found, context: found.sentence }).length > 0) continue;
      const decision = await ctx.decisions.create({
        id: extractedId(doc._id, found.sentence),
        title: found.title,
        category: found.category,
        rationale: found.rationale,
        context: found.sentence,
        actor: 'consolidation',
        sourceMemoryId: doc._id,
      });
      if (decision) created++;
    }
    if (++read % BATCH === 0) await ctx.pause();
  }
  return created;
}

/** Step 2: per subject with new memories, mention counts recounted and near-equal entities merged; then marked. */
async function entitiesStep(
  ctx: StepContext,
): Promise<{ scopes: number; recounted: number; merged: number; memories: number }> {
  const scopes = (await ctx.memory.memories.distinct('subject', unconsolidated(ctx))) as string[];
  const totals = { scopes: scopes.length, recounted: 0, merged: 0, memories: 0 };
  for (const scope of scopes) {
    const result = await consolidateEntities(ctx.graph, scope as GraphScope);
    totals.recounted += result.recounted;
    totals.merged += result.merged;
    await ctx.pause();
  }
  // Marked 500 at a time: one update of every memory would hold an in-process engine's event loop for seconds.
  for (;;) {
    const batch = await ctx.memory.memories.find(unconsolidated(ctx), { _id: 1 }).limit(BATCH).lean();
    if (batch.length === 0) break;
    const ids = batch.map((doc) => doc._id);
    const marked = await ctx.memory.memories.updateMany(
      { _id: { $in: ids } },
      { $set: { consolidated_at: ctx.now } },
    );
    totals.memories += marked.modifiedCount;
    await ctx.pause();
  }
  return totals;
}

/** Step 3: single-valued facts with several open values keep the latest; the others are closed, not deleted. */
async function contradictionsStep(ctx: StepContext): Promise<number> {
  const open = await ctx.graph.facts
    .find({ valid_to: null }, { scope: 1, subject: 1, predicate: 1, valid_from: 1 })
    .lean();
  const groups = new Map<string, typeof open>();
  for (const fact of open) {
    if (!isSingleValued(fact.predicate)) continue;
    const key = `${fact.scope}\n${fact.subject}\n${fact.predicate}`;
    groups.set(key, [...(groups.get(key) ?? []), fact]);
  }
  let closed = 0;
  for (const facts of groups.values()) {
    if (facts.length < 2) continue;
    facts.sort((a, b) => b.valid_from.getTime() - a.valid_from.getTime());
    const latest = facts[0];
    const older = facts.slice(1).map((fact) => fact._id);
    const result = await ctx.graph.facts.updateMany(
      { _id: { $in: older }, valid_to: null },
      { $set: { valid_to: latest.valid_from, expired_at: ctx.now } },
    );
    closed += result.modifiedCount;
  }
  return closed;
}

/** The steps in order, each idempotent: a resumed run redoes the step it stopped in and skips the ones done. */
export const STEP_RUNNERS: Record<ConsolidationStep, (ctx: StepContext) => Promise<Record<string, number>>> =
  {
    decisions: async (ctx) => ({ decisions_extracted: await extractDecisionsStep(ctx) }),
    entities: async (ctx) => {
      const r = await entitiesStep(ctx);
      return {
        entity_scopes: r.scopes,
        entities_recounted: r.recounted,
        entities_merged: r.merged,
        memories_consolidated: r.memories,
      };
    },
    contradictions: async (ctx) => ({ facts_closed: await contradictionsStep(ctx) }),
    archive: async (ctx) => {
      const before = new Date(ctx.now.getTime() - ctx.episodicRetentionDays * 86_400_000);
      const r = await archiveOldSessions(ctx.memory, before, ctx.pause);
      return { memories_archived: r.archived, archival_summaries: r.summaries };
    },
    purge: async (ctx) => ({
      records_purged: await ctx.purgeRecords(
        new Date(ctx.now.getTime() - ctx.auditRetentionDays * 86_400_000),
      ),
    }),
  };
