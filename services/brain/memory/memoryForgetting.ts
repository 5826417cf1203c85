import type { Model } from 'mongoose';
import type { SubjectTextIndex } from '../../../ai/memory/subjectTextIndex';
import type { MemoryDocument } from '../../../models/Memory';
import type { SubjectGraph } from '../graph/subjectGraph';
import type { ForgetTarget, RecallInput, RecallResult } from './memoryService';
import type { MemoryVectors } from './memoryVectors';
import type { WorkingMemoryStore } from './workingMemory';

/** What forgetting writes to (every store a memory lives in) and the recall a `{query}` forget runs. */
export interface MemoryForgetting {
  memories: Model<MemoryDocument>;
  text: Pick<SubjectTextIndex, 'remove'>;
  vectors: Pick<MemoryVectors, 'delete'>;
  graph: Pick<SubjectGraph, 'forgetMemories'>;
  working: Pick<WorkingMemoryStore, 'remove' | 'clear'>;
  recall(input: RecallInput): Promise<RecallResult>;
}

/** Most memories one `{query}` forget removes (the best matches). */
const MAX_QUERY_FORGET = 100;

/**
 * Forgets memories of `subject` from every store: MongoDB, the vectors in Qdrant, the in-process fulltext index,
 * the graph (mentions, and facts no remaining memory supports) and the working tier. `{id}` one memory (stored or
 * working), `{session_id}` a whole session, `{query}` the memories a recall of it finds (working tier excluded).
 * Answers the ids forgotten; another subject's ids are never touched.
 */
export async function forgetMemories(
  keeper: MemoryForgetting,
  subject: string,
  target: ForgetTarget,
): Promise<string[]> {
  const forgotten: string[] = [];
  let stored: string[] = [];
  if ('id' in target) {
    const doc = await keeper.memories.findOne({ _id: target.id, subject }, { _id: 1 }).lean();
    if (doc) stored = [doc._id];
    else if (await keeper.working.remove(subject, target.id)) forgotten.push(target.id);
  } else if ('session_id' in target) {
    const docs = await keeper.memories.find({ subject, session_id: target.session_id }, { _id: 1 }).lean();
    stored = docs.map((doc) => doc._id);
    forgotten.push(...(await keeper.working.clear(subject, target.session_id)));
  } else {
    const { hits } = await keeper.recall({
      subject,
      query: target.query,
      tiers: ['episodic', 'archival', 'semantic'],
      limit: MAX_QUERY_FORGET,
    });
    const ids = hits.filter((hit) => hit.memory.kind !== 'fact').map((hit) => hit.memory.id);
    const docs = await keeper.memories.find({ _id: { $in: ids }, subject }, { _id: 1 }).lean();
    stored = docs.map((doc) => doc._id);
  }
  if (stored.length > 0) await removeStored(keeper, subject, stored);
  return [...stored, ...forgotten];
}

/** Removes stored memories of one subject from MongoDB, Qdrant, the fulltext index and the graph. */
export async function removeStored(keeper: MemoryForgetting, subject: string, ids: string[]): Promise<void> {
  await keeper.memories.deleteMany({ _id: { $in: ids }, subject });
  await keeper.vectors.delete(ids);
  keeper.text.remove(subject, ids);
  await keeper.graph.forgetMemories(subject as `${string}:${string}`, ids);
}
