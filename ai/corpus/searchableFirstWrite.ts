import type { ChunkedDocument } from '../chunking/documentChunker';
import { planReingest } from '../chunking/reingestPlan';
import type { DocumentRecord } from '../../models/corpusRecords';
import { bulkSlice } from '../../platform/timeSlice';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import type { VectorIndex } from '../retrieval/vectorIndex';
import type { ChunkStore, DocumentWrite } from './chunkStore';
import type { EnrichmentJournal } from './enrichmentJournal';
import type { IngestResult } from './ingestor';

/** What a searchable-first batch writes to. */
export interface SearchableFirstDeps {
  store: ChunkStore;
  journal: EnrichmentJournal;
  vectors: Pick<VectorIndex, 'deleteChunks'>;
  fullText: Pick<FullTextIndex, 'replaceDocumentInSlices'>;
  backgroundIndexes: readonly string[];
}

/**
 * The answer for a document whose stored version has the same content and metadata (nothing is written), or
 * `undefined` when it changed. Both write paths (inline and searchable first) answer an unchanged document this way.
 */
export function unchangedResult(
  previous: DocumentRecord | null | undefined,
  document: DocumentRecord,
): IngestResult | undefined {
  if (!previous || previous.contentHash !== document.contentHash) return undefined;
  if (previous.title !== document.title || previous.tags.join('\n') !== document.tags.join('\n'))
    return undefined;
  return {
    documentId: document.id,
    index: document.index,
    source: document.source,
    title: document.title,
    chunks: previous.chunkIds.length,
    embedded: 0,
    removed: 0,
    indexed: [],
    pending: [],
    status: 'unchanged',
    embeddingModel: previous.embeddingModel,
  };
}

/**
 * Writes a validated, chunked batch the way a search engine's bulk API does: one look-up of the previous versions,
 * the owed vectors recorded in the journal (one write), the chunks and documents stored (a few bulk writes, the
 * documents last: their chunk lists are the commit point), stale vectors of updated documents deleted, then the
 * fulltext index updated (in the process's shared bulk budget, `bulkSlice`), so the answer comes back findable.
 * Vectors, graph and RAPTOR follow in the background. Unchanged documents (same content and metadata) write nothing.
 */
export async function writeSearchableFirst(
  deps: SearchableFirstDeps,
  batch: ChunkedDocument[],
  ingestedBy: string,
  ingestedAt: Date,
): Promise<IngestResult[]> {
  const previousById = await deps.store.findDocuments(batch.map((doc) => doc.document.id));
  const writes: DocumentWrite[] = [];
  /** Each write's chunks' analysed fields, when the chunking thread worked them out. */
  const termsOf: (ChunkedDocument['terms'] | undefined)[] = [];
  const owed: { documentId: string; chunkIds: string[] }[] = [];
  const removed: string[] = [];
  const results = batch.map(({ document, chunks: cut, terms }): IngestResult => {
    const previous = previousById.get(document.id);
    const base = {
      documentId: document.id,
      index: document.index,
      source: document.source,
      title: document.title,
    };
    const unchanged = unchangedResult(previous, document);
    if (unchanged) return unchanged;
    const plan = planReingest(previous?.chunkIds ?? [], cut);
    const chunks = cut.map((chunk) => ({ ...chunk, ingestedBy, ingestedAt }));
    const model = previous?.embeddingModel ?? null;
    writes.push({
      document: { ...document, embeddingModel: model, ingestedAt, ingestedBy },
      upserts: chunks,
      removedChunkIds: plan.removedIds,
    });
    termsOf.push(terms);
    if (plan.added.length > 0) owed.push({ documentId: document.id, chunkIds: plan.added.map((c) => c.id) });
    removed.push(...plan.removedIds);
    const vectorsOwed = plan.added.length > 0;
    return {
      ...base,
      status: previous ? 'updated' : 'created',
      chunks: chunks.length,
      embedded: 0,
      removed: plan.removedIds.length,
      embeddingModel: model,
      indexed: vectorsOwed ? ['fulltext'] : ['fulltext', 'vectors'],
      pending: [...(vectorsOwed ? ['vectors'] : []), ...deps.backgroundIndexes],
    };
  });
  if (writes.length === 0) return results;
  // Owed vectors are on record before the documents' commit point, so an acknowledged ingest always has them.
  await deps.journal.recordMany(owed, ingestedAt);
  await deps.store.saveDocuments(writes);
  if (removed.length > 0) await deps.vectors.deleteChunks(removed);
  // The batch's fulltext updates run in the shared bulk budget, between documents as inside a large one: a
  // request's 50 pages (200 chunks) in one go held the loop for 100-250 ms at 100k chunks (stop 49), and with 4
  // requests in flight each yielding on its own clock their slices still ran back to back (stop 50).
  for (const [i, write] of writes.entries()) {
    await bulkSlice();
    await deps.fullText.replaceDocumentInSlices(write.document.id, write.upserts, { terms: termsOf[i] });
  }
  return results;
}
