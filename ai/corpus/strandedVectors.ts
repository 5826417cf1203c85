import type { ChunkStore } from './chunkStore';
import type { EnrichmentJournal } from './enrichmentJournal';

/** What finding stranded documents reads: the stored documents, and where owed vectors are recorded. */
export interface StrandedVectorsDeps {
  store: Pick<ChunkStore, 'documentsEmbeddedOutside'>;
  journal: Pick<EnrichmentJournal, 'recordMany'>;
}

/**
 * Documents whose vectors sit in a space no provider of the embedding chain serves any more (the offline embedder was
 * changed, say `BRAIN_LOCAL_EMBEDDER=semantic` → `fused`, or a cloud provider's URL removed): no query can be embedded
 * in their space, so semantic search cannot find them. Their vectors are recorded as owed again, every chunk, so the
 * vector backfill moves each document into the chain's space (embedding it anew and dropping the old vectors) in the
 * background, with its progress in /brain/stats like any ingest's. Run at start-up, before the backfill is kicked;
 * answers how many documents and chunks it recorded. A restart before the move ends finds the entries still owed.
 */
export async function recordStrandedVectors(
  deps: StrandedVectorsDeps,
  servedModels: readonly string[],
  at: Date,
): Promise<{ documents: number; chunks: number; models: string[] }> {
  const stranded = await deps.store.documentsEmbeddedOutside(servedModels);
  if (stranded.length > 0)
    await deps.journal.recordMany(
      stranded.map((document) => ({ documentId: document.id, chunkIds: document.chunkIds })),
      at,
    );
  return {
    documents: stranded.length,
    chunks: stranded.reduce((sum, document) => sum + document.chunkIds.length, 0),
    models: [...new Set(stranded.map((document) => document.embeddingModel!))],
  };
}
