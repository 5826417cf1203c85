import type { ChunkRecord } from '../../models/corpusRecords';
import { extractEntities, type ExtractedEntity } from './entityExtractor';

/** An entity of the corpus graph: its display name, kind, mention count and the chunks mentioning it. */
export interface EntityNode {
  key: string;
  name: string;
  type: ExtractedEntity['type'];
  /** Mentions across chunks (SPEC 2.9 `mention_count`). */
  mentionCount: number;
  /** Chunk id → mentions in that chunk. */
  chunks: Map<string, number>;
  /** Document id → chunks of it mentioning the entity (for incremental removal). */
  documents: Map<string, number>;
}

/** What changed in one update: entities whose mentions or edges moved, and documents touched. */
export interface GraphChange {
  entities: Set<string>;
  documents: Set<string>;
}

/**
 * The documents' knowledge graph in memory, kept in step with the corpus incrementally: replacing a document
 * removes its chunks' mentions and co-occurrence edges and adds the new ones, touching only the entities
 * involved (they are recorded as dirty for the next community update and the MongoDB sync). Entities are
 * found by `extractEntities`; two entities in one chunk get a `co_occurs` edge whose weight counts the
 * chunks they share. Term lookups (`entitiesWithTerm`) serve query-entity matching.
 */
export class CorpusGraph {
  readonly entities = new Map<string, EntityNode>();
  private readonly adjacency = new Map<string, Map<string, number>>();
  private readonly chunkEntities = new Map<string, string[]>();
  private readonly documentChunks = new Map<string, string[]>();
  private readonly byTerm = new Map<string, Set<string>>();
  private relationCount = 0;
  /** Entities changed since `takeChanges()` was last called. */
  private pending: GraphChange = { entities: new Set(), documents: new Set() };

  /** Replaces a document's chunks (an empty list removes the document). */
  replaceDocument(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.startDocument(
      documentId,
      chunks.map((c) => c.id),
    );
    this.addChunks(documentId, chunks);
  }

  /**
   * The first step of a replace done in slices: removes the document's old chunks and records its new chunk ids;
   * `addChunks` then adds the chunks a slice at a time.
   */
  startDocument(documentId: string, chunkIds: readonly string[]): void {
    this.removeDocument(documentId);
    if (chunkIds.length > 0) this.documentChunks.set(documentId, [...chunkIds]);
  }

  /**
   * Adds chunks of a document begun with `startDocument`; `extracted`, when given, holds each chunk's entities as
   * `extractEntities` found them (in a worker thread), so only the graph's bookkeeping runs here.
   */
  addChunks(
    documentId: string,
    chunks: readonly ChunkRecord[],
    extracted?: readonly ExtractedEntity[][],
  ): void {
    chunks.forEach((chunk, i) => this.addChunk(documentId, chunk, extracted?.[i] ?? extractEntities(chunk)));
  }

  /** Removes a document's mentions and edges. */
  removeDocument(documentId: string): void {
    const chunkIds = this.documentChunks.get(documentId);
    if (!chunkIds) return;
    this.pending.documents.add(documentId);
    for (const chunkId of chunkIds) {
      const keys = this.chunkEntities.get(chunkId) ?? [];
      this.linkAll(keys, -1);
      for (const key of keys) {
        const node = this.entities.get(key)!;
        node.mentionCount -= node.chunks.get(chunkId) ?? 0;
        node.chunks.delete(chunkId);
        const left = (node.documents.get(documentId) ?? 1) - 1;
        if (left > 0) node.documents.set(documentId, left);
        else node.documents.delete(documentId);
        this.pending.entities.add(key);
        if (node.chunks.size === 0) this.dropEntity(node);
      }
      this.chunkEntities.delete(chunkId);
    }
    this.documentChunks.delete(documentId);
  }

  /** Entities whose key holds `term` (an index term). */
  entitiesWithTerm(term: string): ReadonlySet<string> {
    return this.byTerm.get(term) ?? new Set();
  }

  /** Co-occurrence neighbours of an entity with edge weights. */
  neighbours(key: string): ReadonlyMap<string, number> {
    return this.adjacency.get(key) ?? new Map();
  }

  /** The chunk ids of a document the graph holds (empty when none). */
  chunksOfDocument(documentId: string): readonly string[] {
    return this.documentChunks.get(documentId) ?? [];
  }

  /** The entity keys found in a chunk. */
  entitiesOfChunk(chunkId: string): readonly string[] {
    return this.chunkEntities.get(chunkId) ?? [];
  }

  /** Entity and relation counts. */
  counts(): { entities: number; relations: number } {
    return { entities: this.entities.size, relations: this.relationCount };
  }

  /** Returns and clears what changed since the last call (for community updates and the MongoDB sync). */
  takeChanges(): GraphChange {
    const changes = this.pending;
    this.pending = { entities: new Set(), documents: new Set() };
    return changes;
  }

  private addChunk(documentId: string, chunk: ChunkRecord, extracted: readonly ExtractedEntity[]): void {
    this.pending.documents.add(documentId);
    for (const entity of extracted) {
      let node = this.entities.get(entity.key);
      if (!node) {
        node = {
          key: entity.key,
          name: entity.name,
          type: entity.type,
          mentionCount: 0,
          chunks: new Map(),
          documents: new Map(),
        };
        this.entities.set(entity.key, node);
        for (const term of entity.key.split(' ')) {
          const set = this.byTerm.get(term) ?? new Set<string>();
          this.byTerm.set(term, set.add(entity.key));
        }
      }
      node.mentionCount += entity.count;
      node.chunks.set(chunk.id, entity.count);
      node.documents.set(documentId, (node.documents.get(documentId) ?? 0) + 1);
      this.pending.entities.add(entity.key);
    }
    const keys = extracted.map((e) => e.key);
    this.chunkEntities.set(chunk.id, keys);
    this.linkAll(keys, 1);
  }

  /** Adds `delta` to the co-occurrence weight of every pair of `keys`; edges reaching 0 are removed. */
  private linkAll(keys: readonly string[], delta: number): void {
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        this.link(keys[i], keys[j], delta);
        this.link(keys[j], keys[i], delta);
      }
    }
  }

  private link(from: string, to: string, delta: number): void {
    const edges = this.adjacency.get(from) ?? new Map<string, number>();
    this.adjacency.set(from, edges);
    const weight = (edges.get(to) ?? 0) + delta;
    if (weight <= 0) {
      if (edges.delete(to) && from < to) this.relationCount--;
      if (edges.size === 0) this.adjacency.delete(from);
    } else {
      if (!edges.has(to) && from < to) this.relationCount++;
      edges.set(to, weight);
    }
  }

  private dropEntity(node: EntityNode): void {
    this.entities.delete(node.key);
    for (const term of node.key.split(' ')) {
      const set = this.byTerm.get(term);
      set?.delete(node.key);
      if (set?.size === 0) this.byTerm.delete(term);
    }
  }
}
