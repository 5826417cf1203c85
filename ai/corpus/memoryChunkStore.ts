import {
  INDEX_NAMES,
  type ChunkRecord,
  type DocumentRecord,
  type IndexName,
} from '../../models/corpusRecords';
import { UNRECORDED_INGESTER, type ChunkStore, type CorpusCounts, type DocumentWrite } from './chunkStore';

function zeroPerIndex(): Record<IndexName, number> {
  return Object.fromEntries(INDEX_NAMES.map((index) => [index, 0])) as Record<IndexName, number>;
}

/** A ChunkStore in memory, for tests and benches. */
export class InMemoryChunkStore implements ChunkStore {
  private readonly documents = new Map<string, DocumentRecord>();
  private readonly chunks = new Map<string, ChunkRecord>();

  async findDocument(documentId: string): Promise<DocumentRecord | undefined> {
    return this.documents.get(documentId);
  }

  async findDocuments(documentIds: readonly string[]): Promise<Map<string, DocumentRecord>> {
    const found = new Map<string, DocumentRecord>();
    for (const id of documentIds) if (this.documents.has(id)) found.set(id, this.documents.get(id)!);
    return found;
  }

  async saveDocuments(writes: readonly DocumentWrite[]): Promise<void> {
    for (const write of writes) await this.saveDocument(write);
  }

  async saveDocument(write: DocumentWrite): Promise<void> {
    for (const id of write.removedChunkIds) this.chunks.delete(id);
    for (const chunk of write.upserts) this.chunks.set(chunk.id, chunk);
    this.documents.set(write.document.id, write.document);
  }

  async setEmbeddingModel(documentIds: readonly string[], model: string): Promise<void> {
    for (const documentId of documentIds) {
      const document = this.documents.get(documentId);
      if (document) this.documents.set(documentId, { ...document, embeddingModel: model });
    }
  }

  async *allChunks(): AsyncIterable<ChunkRecord> {
    yield* this.chunks.values();
  }

  async documentsIngestedSince(since: Date): Promise<DocumentRecord[]> {
    return [...this.documents.values()].filter((doc) => doc.ingestedAt && doc.ingestedAt >= since);
  }

  async documentsEmbeddedOutside(models: readonly string[]): Promise<DocumentRecord[]> {
    return [...this.documents.values()].filter(
      (doc) => doc.embeddingModel !== null && !models.includes(doc.embeddingModel),
    );
  }

  async getChunks(ids: readonly string[]): Promise<Map<string, ChunkRecord>> {
    const found = new Map<string, ChunkRecord>();
    for (const id of ids) {
      const chunk = this.chunks.get(id);
      if (chunk) found.set(id, chunk);
    }
    return found;
  }

  async counts(): Promise<CorpusCounts> {
    const documents = zeroPerIndex();
    const chunks = zeroPerIndex();
    let latest: DocumentRecord | undefined;
    const byIngester = new Map<string, number>();
    for (const doc of this.documents.values()) {
      documents[doc.index]++;
      // Committed chunks only: the ones a stored document lists (as MongoChunkStore counts them).
      chunks[doc.index] += doc.chunkIds.length;
      const ingester = doc.ingestedBy ?? UNRECORDED_INGESTER;
      byIngester.set(ingester, (byIngester.get(ingester) ?? 0) + 1);
      if (doc.ingestedAt && (!latest?.ingestedAt || doc.ingestedAt > latest.ingestedAt)) latest = doc;
    }
    return {
      documents,
      chunks,
      lastIngestAt: latest?.ingestedAt ?? null,
      lastIngestBy: latest?.ingestedBy ?? null,
      documentsByIngester: [...byIngester]
        .map(([ingestedBy, count]) => ({ ingestedBy, documents: count }))
        .sort((a, b) => b.documents - a.documents || a.ingestedBy.localeCompare(b.ingestedBy)),
    };
  }
}
