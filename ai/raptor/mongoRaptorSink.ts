import type { Connection } from 'mongoose';
import { brainRaptorNodeModel } from '../../models/BrainRaptorNode';
import { systemClock, type Clock } from '../../platform/clock';
import type { VectorIndex } from '../retrieval/vectorIndex';
import type { RaptorSink } from './raptorIndex';
import type { TreeUpdate } from './raptorNode';
import type { RaptorTree } from './raptorTree';

/** Statements per write command: keeps each step of the embedded engines short (see MongoGraphSink). */
const WRITE_BATCH = 100;

/** The Qdrant payload `documentId` of an index's summary vectors, so a rebuild drops them with one filter. */
export const raptorVectorGroup = (index: string) => `raptor:${index}`;

/**
 * Stores the RAPTOR trees' summary nodes: text and shape in MongoDB (`BrainRaptorNode`), vectors in a Qdrant
 * collection of their own (the chunk collection's searches never see them). Incremental like the tree: the
 * written nodes are upserted and the removed ones deleted; after a rebuild, the index's rows and vectors that
 * the new tree does not hold are dropped. The in-memory trees are what searches read (rebuilt from the chunks
 * at start-up, like BM25 and the graph); this is the shared, queryable copy, the last writer's when several
 * processes keep trees.
 */
export class MongoRaptorSink implements RaptorSink {
  constructor(
    private readonly connection: Connection,
    private readonly vectors: VectorIndex,
    private readonly clock: Clock = systemClock,
  ) {}

  async sync(tree: RaptorTree, update: TreeUpdate, model: string): Promise<void> {
    const nodes = brainRaptorNodeModel(this.connection);
    const now = new Date(this.clock.now());
    const group = raptorVectorGroup(tree.index);
    if (update.rebuilt) await this.vectors.deleteByDocument(group);
    else if (update.removed.length > 0) await this.vectors.deleteChunks(update.removed, model);
    if (update.written.length > 0) {
      await this.vectors.ensureSpace({ model, dimensions: update.written[0].vector.length });
      await this.vectors.upsert(
        model,
        update.written.map((node) => ({
          chunkId: node.id,
          documentId: group,
          index: tree.index,
          vector: Array.from(node.vector),
        })),
      );
    }
    const ops = update.written.map((node) => ({
      replaceOne: {
        filter: { _id: node.id },
        replacement: {
          _id: node.id,
          index: tree.index,
          level: node.level,
          parent: node.parent,
          children: [...node.children],
          summary: node.text,
          model,
          updated_at: now,
        },
        upsert: true,
      },
    }));
    for (let i = 0; i < ops.length; i += WRITE_BATCH)
      await nodes.bulkWrite(ops.slice(i, i + WRITE_BATCH), { ordered: false });
    if (update.rebuilt) {
      const kept = [...tree.nodes.values()].filter((n) => n.level > 0).map((n) => n.id);
      await nodes.deleteMany({ index: tree.index, _id: { $nin: kept } });
    } else if (update.removed.length > 0) {
      await nodes.deleteMany({ _id: { $in: update.removed } });
    }
  }
}
