import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../platform/clock';
import { ValidationError, type FieldError } from '../../platform/errors';
import type { SearchCache } from '../cache/searchCache';
import { inlineChunking, type DocumentChunking } from '../chunking/chunkingPool';
import type { IngestActivity } from './ingestActivity';
import { type ChunkedDocument, type ChunkerOptions } from '../chunking/documentChunker';
import {
  embeddingTextOf,
  type ChunkRecord,
  type DocumentRecord,
  type IndexName,
  type SourceDocument,
} from '../../models/corpusRecords';
import { planReingest } from '../chunking/reingestPlan';
import {
  DEFAULT_DOCUMENT_LIMITS,
  validateSourceDocument,
  type DocumentLimits,
  type ValidDocument,
} from '../chunking/validation';
import type { EmbeddingChain } from '../embeddings/embeddingChain';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import type { VectorIndex } from '../retrieval/vectorIndex';
import type { ChunkStore } from './chunkStore';
import type { EnrichmentJournal } from './enrichmentJournal';
import { unchangedResult, writeSearchableFirst } from './searchableFirstWrite';

/**
 * What the ingestor writes to. Defaults: system clock, 1 MiB documents, 512-token chunks cut inline (`chunking`:
 * the brain passes a ChunkingPool, which takes large documents off the event loop), silent logger.
 */
export interface IngestorDeps {
  store: ChunkStore;
  vectors: VectorIndex;
  fullText: Pick<FullTextIndex, 'replaceDocumentInSlices'>;
  embeddings: Pick<EmbeddingChain, 'embed'>;
  cache?: Pick<SearchCache, 'invalidate'>;
  clock?: Clock;
  limits?: DocumentLimits;
  chunker?: ChunkerOptions;
  chunking?: DocumentChunking;
  /** Marked busy while a batch is ingested, so background enrichment can give way (the brain's). */
  activity?: IngestActivity;
  logger?: Logger;
  /**
   * Searchable first, enriched after: with a journal, an ingest stores chunks and fulltext at once and records the
   * owed vectors here for `backfill` to compute in the background (without one, vectors are computed inline).
   */
  enrichment?: { journal: EnrichmentJournal; backfill: { kick(): void } };
  /** Indexes other components bring up to date in the background after a change (the brain: graph, RAPTOR). */
  backgroundIndexes?: readonly string[];
}

/** Outcome per document, in request order. */
export interface IngestResult {
  documentId: string;
  index: IndexName;
  source: string;
  title: string;
  status: 'created' | 'updated' | 'unchanged';
  chunks: number;
  /** Chunks embedded by this ingest (new content, or all of them when the vector space changed). */
  embedded: number;
  removed: number;
  embeddingModel: string | null;
  /** Indexes that already hold this version (fulltext at least) when the answer is sent. */
  indexed: string[];
  /** Indexes still to catch up with this version in the background (vectors, graph, raptor). */
  pending: string[];
}

/**
 * Ingests documents (POST /brain/ingest and the CLI): validates and chunks *every* document before writing
 * anything, so a bad document rejects the whole request with 400 and no writes; then per document skips
 * unchanged content, embeds only new chunks (all chunks if the embedding chain fell to another model than
 * the document's), and writes vectors, then the chunk store, then removes stale vectors and refreshes the
 * BM25 index. After any change the search cache is invalidated. A failure after the vector upsert leaves at
 * most orphan vectors of new chunk ids, which searches ignore and a retry overwrites.
 */
export class Ingestor {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly chunking: DocumentChunking;

  constructor(private readonly deps: IngestorDeps) {
    this.clock = deps.clock ?? systemClock;
    this.logger = deps.logger ?? pino({ level: 'silent' });
    this.chunking = deps.chunking ?? inlineChunking(deps.chunker);
  }

  /**
   * Ingests a batch; `pathPrefix` names the documents array in errors (default `documents`; a caller names where
   * the batch sits in its own input, as the brain's ingest route names its request body's field), `ingestedBy`
   * is recorded on each stored version (`user:<id>`, `service`, `seed`, `cli`; default `system`).
   */
  async ingest(
    docs: SourceDocument[],
    pathPrefix = 'documents',
    ingestedBy = 'system',
  ): Promise<IngestResult[]> {
    const end = this.deps.activity?.begin();
    try {
      return await this.ingestBatch(docs, pathPrefix, ingestedBy);
    } finally {
      end?.();
    }
  }

  private async ingestBatch(
    docs: SourceDocument[],
    pathPrefix: string,
    ingestedBy: string,
  ): Promise<IngestResult[]> {
    const valid = this.validate(docs, pathPrefix);
    let chunked: ChunkedDocument[] = [];
    if (this.chunking.chunkAll) chunked = await this.chunking.chunkAll(valid);
    else for (const doc of valid) chunked.push(await this.chunking.chunk(doc));
    const results: IngestResult[] = [];
    const deferred = this.deps.enrichment;
    if (deferred) {
      const writeDeps = {
        ...this.deps,
        journal: deferred.journal,
        backgroundIndexes: this.deps.backgroundIndexes ?? [],
      };
      results.push(
        ...(await writeSearchableFirst(writeDeps, chunked, ingestedBy, new Date(this.clock.now()))),
      );
    } else {
      for (const doc of chunked) results.push(await this.write(doc, ingestedBy));
    }
    if (results.some((r) => r.status !== 'unchanged')) await this.deps.cache?.invalidate();
    if (results.some((r) => r.pending.includes('vectors'))) this.deps.enrichment?.backfill.kick();
    return results;
  }

  /** Validates every document (no chunking yet), so one bad document rejects the batch before any work. */
  private validate(docs: SourceDocument[], pathPrefix: string): ValidDocument[] {
    const failures: { code: string; errors: FieldError[] }[] = [];
    const seen = new Map<string, number>();
    const accepted = docs.flatMap((doc, i) => {
      try {
        const valid = validateSourceDocument(
          doc,
          this.deps.limits ?? DEFAULT_DOCUMENT_LIMITS,
          `${pathPrefix}.${i}`,
        );
        const key = `${valid.index}\n${valid.source}`;
        if (seen.has(key)) {
          const message = `repeats the source of ${pathPrefix}.${seen.get(key)}`;
          failures.push({
            code: 'BRAIN_DUPLICATE_SOURCE',
            errors: [{ path: `${pathPrefix}.${i}.source`, message }],
          });
          return [];
        }
        seen.set(key, i);
        return [valid];
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        failures.push({ code: error.code, errors: error.errors ?? [] });
        return [];
      }
    });
    if (failures.length > 0) {
      const errors = failures.flatMap((f) => f.errors);
      throw new ValidationError(
        errors.map((e) => `${e.path} ${e.message}`).join('; '),
        errors,
        failures[0].code,
      );
    }
    return accepted;
  }

  private async write(
    { document, chunks: cut, terms }: ChunkedDocument,
    ingestedBy: string,
  ): Promise<IngestResult> {
    const previous = await this.deps.store.findDocument(document.id);
    const base = {
      documentId: document.id,
      index: document.index,
      source: document.source,
      title: document.title,
    };
    const unchanged = unchangedResult(previous, document);
    if (unchanged) return unchanged;

    const plan = planReingest(previous?.chunkIds ?? [], cut);
    const { model, embedded } = await this.embedChunks(
      plan.added,
      plan.kept,
      previous?.embeddingModel ?? null,
    );
    const ingestedAt = new Date(this.clock.now());
    const chunks = cut.map((chunk) => ({ ...chunk, ingestedBy, ingestedAt }));
    const stored: DocumentRecord = { ...document, embeddingModel: model, ingestedAt, ingestedBy };
    await this.deps.store.saveDocument({
      document: stored,
      upserts: chunks,
      removedChunkIds: plan.removedIds,
    });
    if (plan.removedIds.length > 0) await this.deps.vectors.deleteChunks(plan.removedIds);
    await this.deps.fullText.replaceDocumentInSlices(document.id, chunks, { terms });

    const status = previous ? 'updated' : 'created';
    this.logger.info(
      { ...base, status, embedded, removed: plan.removedIds.length, model, ingestedBy },
      'brain document ingested',
    );
    return {
      ...base,
      status,
      chunks: chunks.length,
      embedded,
      removed: plan.removedIds.length,
      embeddingModel: model,
      indexed: ['fulltext', 'vectors'],
      pending: [...(this.deps.backgroundIndexes ?? [])],
    };
  }

  /** Embeds and upserts new chunks; if they land in another space than the kept ones, moves those too. */
  private async embedChunks(
    added: ChunkRecord[],
    kept: ChunkRecord[],
    previousModel: string | null,
  ): Promise<{ model: string | null; embedded: number }> {
    if (added.length === 0) return { model: previousModel, embedded: 0 };
    const result = await this.deps.embeddings.embed(added.map(embeddingTextOf));
    let toStore = added.map((chunk, i) => ({ chunk, vector: result.vectors[i] }));
    const moveKept = kept.length > 0 && previousModel !== null && previousModel !== result.model;
    if (moveKept) {
      const moved = await this.deps.embeddings.embed(kept.map(embeddingTextOf), [result.model]);
      toStore = [...toStore, ...kept.map((chunk, i) => ({ chunk, vector: moved.vectors[i] }))];
    }
    await this.deps.vectors.ensureSpace({ model: result.model, dimensions: toStore[0].vector.length });
    await this.deps.vectors.upsert(
      result.model,
      toStore.map(({ chunk, vector }) => ({
        chunkId: chunk.id,
        documentId: chunk.documentId,
        index: chunk.index,
        vector,
      })),
    );
    if (moveKept)
      await this.deps.vectors.deleteChunks(
        kept.map((c) => c.id),
        previousModel,
      );
    return { model: result.model, embedded: toStore.length };
  }
}
