import type { Connection } from 'mongoose';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import { bulkSlice } from '../../platform/timeSlice';
import { graphCommunityModel } from '../../models/GraphCommunity';
import { graphEntityModel } from '../../models/GraphEntity';
import { graphMentionModel } from '../../models/GraphMention';
import { graphRelationModel } from '../../models/GraphRelation';
import type { Community } from './communityHierarchy';
import type { CorpusGraph, GraphChange } from './corpusGraph';
import type { GraphSink } from './graphIndex';

const SCOPE = 'corpus' as const;
const idOf = (key: string) => `${SCOPE}|${key}`;

/**
 * Persists the documents' knowledge graph in the shared graph models (scope `corpus`), incrementally: for
 * the changed documents, their mentions are replaced; for the changed entities, the entity rows
 * (`mention_count`, top-level community) and their `co_occurs` relations are upserted, or deleted when the
 * entity is gone; the community rows that changed since the last round are replaced and the ones gone deleted (the
 * first round of a process replaces them all). Entity `key` is the graph key (stemmed terms, so "Circuit breakers"
 * and "circuit breaker" are one entity); `_id` is `corpus|<key>`.
 */
export class MongoGraphSink implements GraphSink {
  /**
   * What this process last wrote per community row (`_id` → its fields as JSON); undefined until the first round, and
   * after a failed one (the next round then replaces every row). Every round used to delete and insert every
   * community: thousands of rows at 100k chunks, in one command, every graph round of a bulk ingest.
   */
  private written?: Map<string, string>;

  constructor(
    private readonly connection: Connection,
    private readonly clock: Clock = systemClock,
  ) {}

  async sync(graph: CorpusGraph, changes: GraphChange, communities: Community[]): Promise<void> {
    const now = new Date(this.clock.now());
    const entities = graphEntityModel(this.connection);
    const mentions = graphMentionModel(this.connection);
    const relations = graphRelationModel(this.connection);
    const documents = [...changes.documents];
    await mentions.deleteMany({ scope: SCOPE, documentId: { $in: documents } });
    const mentionRows = [];
    // A round's rows are built in the shared bulk budget: a bulk ingest's round changes thousands of entities with
    // hundreds of neighbours each, and building their upserts held the loop for 0.2-1.2 s in one task (stop 48).
    for (const documentId of documents) {
      await bulkSlice();
      for (const chunkId of graph.chunksOfDocument(documentId)) {
        for (const key of graph.entitiesOfChunk(chunkId)) {
          const count = graph.entities.get(key)?.chunks.get(chunkId) ?? 1;
          mentionRows.push({
            _id: `${idOf(key)}@${chunkId}`,
            scope: SCOPE,
            entityId: idOf(key),
            sourceId: chunkId,
            documentId,
            count,
          });
        }
      }
    }
    if (mentionRows.length > 0) {
      await inBatches(
        mentionRows.map((row) => ({
          replaceOne: { filter: { _id: row._id }, replacement: row, upsert: true },
        })),
        (batch) => mentions.bulkWrite(batch, { ordered: false }),
      );
    }
    const topOf = new Map<string, string[]>();
    for (const c of communities)
      for (const m of c.members) topOf.set(m, [...(topOf.get(m) ?? []), `${SCOPE}|${c.id}`]);
    const entityOps = [];
    const relationOps = [];
    const gone: string[] = [];
    for (const key of changes.entities) {
      await bulkSlice();
      const node = graph.entities.get(key);
      if (!node) {
        gone.push(idOf(key));
        continue;
      }
      entityOps.push({
        updateOne: {
          filter: { _id: idOf(key) },
          update: {
            $set: {
              scope: SCOPE,
              key,
              name: node.name,
              type: node.type,
              mention_count: node.mentionCount,
              last_seen: now,
              communities: topOf.get(key) ?? [],
            },
            $setOnInsert: { aliases: [], first_seen: now },
          },
          upsert: true,
        },
      });
      for (const [other, weight] of graph.neighbours(key)) {
        const [from, to] = key < other ? [key, other] : [other, key];
        const _id = `${idOf(from)}>co_occurs>${idOf(to)}`;
        relationOps.push({
          updateOne: {
            filter: { _id },
            update: {
              $set: {
                scope: SCOPE,
                from: idOf(from),
                to: idOf(to),
                kind: 'co_occurs',
                weight,
                last_seen: now,
              },
              $setOnInsert: { first_seen: now },
            },
            upsert: true,
          },
        });
      }
    }
    await inBatches(entityOps, (batch) => entities.bulkWrite(batch, { ordered: false }));
    await inBatches(relationOps, (batch) => relations.bulkWrite(batch, { ordered: false }));
    if (gone.length > 0) {
      await entities.deleteMany({ _id: { $in: gone } });
      await relations.deleteMany({ scope: SCOPE, $or: [{ from: { $in: gone } }, { to: { $in: gone } }] });
    }
    try {
      await this.syncCommunities(communities, now);
    } catch (error) {
      this.written = undefined;
      throw error;
    }
  }

  /** Replaces the community rows that changed since the last round, deletes the ones gone (see `written`). */
  private async syncCommunities(communities: Community[], now: Date): Promise<void> {
    const communityModel = graphCommunityModel(this.connection);
    const rows = communities.map((c) => ({
      _id: `${SCOPE}|${c.id}`,
      scope: SCOPE,
      level: c.level,
      parent: c.parent ? `${SCOPE}|${c.parent}` : null,
      members: c.members.map(idOf),
      title: c.title,
      summary: c.summary,
    }));
    const fields = (row: (typeof rows)[number]) =>
      JSON.stringify([row.level, row.parent, row.members, row.title, row.summary]);
    const previous = this.written;
    const written = new Map(rows.map((row) => [row._id, fields(row)]));
    if (!previous) {
      await communityModel.deleteMany({ scope: SCOPE });
      await inBatches(rows, (batch) =>
        communityModel.insertMany(batch.map((row) => ({ ...row, updated_at: now }))),
      );
    } else {
      const gone = [...previous.keys()].filter((id) => !written.has(id));
      await inBatches(gone, (batch) => communityModel.deleteMany({ _id: { $in: batch } }));
      const changed = rows.filter((row) => previous.get(row._id) !== written.get(row._id));
      await inBatches(
        changed.map((row) => ({
          replaceOne: { filter: { _id: row._id }, replacement: { ...row, updated_at: now }, upsert: true },
        })),
        (batch) => communityModel.bulkWrite(batch, { ordered: false }),
      );
    }
    this.written = written;
  }
}

/**
 * Statements per write command. A 1 MB ingest makes thousands of mention and relation upserts; as one command, the
 * embedded MongoDB engine (in this process) applied them in one synchronous step that held the event loop for
 * seconds. Batches keep each step short and let requests in between.
 */
const WRITE_BATCH = 50;

/** Runs `write` over `ops` in batches of WRITE_BATCH, one after another. */
async function inBatches<T>(ops: T[], write: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < ops.length; i += WRITE_BATCH) await write(ops.slice(i, i + WRITE_BATCH));
}
