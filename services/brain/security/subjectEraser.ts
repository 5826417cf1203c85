import { randomUUID } from 'node:crypto';
import type { GraphScope } from '../../../models/GraphEntity';
import type { SubjectGraph } from '../graph/subjectGraph';
import type { MemoryKeeper } from '../memory/memoryKeeper';
import type { MemoryVectors } from '../memory/memoryVectors';
import type { WorkingMemoryStore } from '../memory/workingMemory';

/** The receipt of an erasure: what was removed, when, under which id (kept in the audit log). */
export interface ErasureReceipt {
  receipt_id: string;
  subject: string;
  erased_at: Date;
  erased: {
    memories: number;
    working: number;
    vectors: number;
    entities: number;
    mentions: number;
    relations: number;
    facts: number;
  };
}

/** Erases everything the brain keeps about a subject, and exports it. */
export class SubjectEraser {
  constructor(
    private readonly memory: MemoryKeeper,
    private readonly graph: SubjectGraph,
    private readonly working: WorkingMemoryStore,
    private readonly vectors: MemoryVectors,
  ) {}

  /** Removes the subject's memories (every tier and store) and its whole graph scope. */
  async erase(subject: string): Promise<ErasureReceipt> {
    let working = 0;
    for (const session of await this.working.sessions(subject))
      working += (await this.working.clear(subject, session)).length;
    const memories = (await this.memory.memories.deleteMany({ subject })).deletedCount;
    const vectors = await this.vectors.deleteSubject(subject);
    this.memory.text.forgetSubject(subject);
    const graph = await this.graph.eraseScope(subject as GraphScope);
    return {
      receipt_id: randomUUID(),
      subject,
      erased_at: new Date(this.memory.options.clock.now()),
      erased: { memories, working, vectors, ...graph },
    };
  }

  /** Everything kept about the subject: stored and working memories, entities and facts. */
  async export(subject: string) {
    const working = [];
    for (const session of await this.working.sessions(subject))
      working.push(...(await this.working.list(subject, session)));
    const [memories, entities, facts] = await Promise.all([
      this.memory.memories.find({ subject }).sort({ _id: 1 }).lean(),
      this.graph.entities
        .find({ scope: subject as GraphScope })
        .sort({ _id: 1 })
        .lean(),
      this.graph.facts
        .find({ scope: subject as GraphScope })
        .sort({ valid_from: 1 })
        .lean(),
    ]);
    return { memories, working, entities, facts };
  }
}
