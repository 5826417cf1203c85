import { bulkSlice } from '../../platform/timeSlice';
import { INDEX_NAMES, type ChunkRecord, type IndexName } from '../../models/corpusRecords';
import { hitFromChunk, type ChunkLookup } from '../retrieval/chunkLookup';
import { DEFAULT_SEARCH_LIMIT, type Hit, type SearchOptions } from '../retrieval/hit';
import { CandidateAnalyses } from '../rerank/candidateAnalyses';
import { queryTerms } from '../text/terms';
import { Bm25Index, DEFAULT_BM25_PARAMS, type AnalysedField, type Bm25Params } from './bm25Index';
import { chunkFieldTerms, type ChunkFieldTerms } from './chunkFields';

/** BM25F settings. Defaults: k1 1.2, b 0.75; field boosts symbols 3, title (with headings) 2, source 1.5, text 1. */
export interface FullTextOptions {
  bm25: Bm25Params;
  boosts: { symbols: number; title: number; source: number; text: number };
}

export const DEFAULT_FULLTEXT_OPTIONS: FullTextOptions = {
  bm25: DEFAULT_BM25_PARAMS,
  boosts: { symbols: 3, title: 2, source: 1.5, text: 1 },
};

/**
 * The FULLTEXT strategy's index: BM25F over chunks in memory (ai/fulltext/bm25Index) with the brain's term
 * analysis (ai/text/terms). Scored in-house: the maintained libraries measured against it (wink-bm25-text-
 * search, MiniSearch, Orama; table in ai/README.md) take 1-3 ms a query where this takes 0.05 ms, and wink,
 * the only one ranking as well, cannot add documents after its one-time consolidation.
 * Not persisted: at start-up call `rebuild(chunks)` with every stored chunk (20k chunks take a few
 * seconds); after that keep it in step with `replaceDocument` and `removeDocument` on each ingest. Also
 * serves as the `ChunkLookup` for the semantic strategy.
 */
export class FullTextIndex implements ChunkLookup {
  private readonly chunks = new Map<string, ChunkRecord>();
  private readonly byDocument = new Map<string, Set<string>>();
  private readonly engine: Bm25Index;
  private readonly boosts: FullTextOptions['boosts'];
  private readonly listeners: Array<(documentId: string, chunks: readonly ChunkRecord[]) => void> = [];
  /**
   * Each indexed chunk's terms as the reranker reads them, handed over while they are analysed for BM25: a search
   * then finds its candidates analysed (at 100k chunks, analysing them at search time was most of a search's CPU).
   */
  readonly analyses = new CandidateAnalyses();

  constructor(options: Partial<FullTextOptions> = {}) {
    this.boosts = options.boosts ?? DEFAULT_FULLTEXT_OPTIONS.boosts;
    this.engine = new Bm25Index(options.bm25 ?? DEFAULT_FULLTEXT_OPTIONS.bm25);
  }

  /** Number of chunks indexed. */
  get size(): number {
    return this.chunks.size;
  }

  /** Chunk counts per index. */
  countsByIndex(): Record<IndexName, number> {
    const counts = Object.fromEntries(INDEX_NAMES.map((i) => [i, 0])) as Record<IndexName, number>;
    for (const chunk of this.chunks.values()) counts[chunk.index]++;
    return counts;
  }

  /**
   * Adds chunks; a chunk whose id is already indexed is replaced. `terms[i]`, when given, is `chunks[i]`'s analysed
   * fields (`chunkFieldTerms`, worked out off the event loop by the chunking threads); otherwise they are worked out
   * here.
   */
  add(chunks: readonly ChunkRecord[], terms?: readonly ChunkFieldTerms[]): void {
    chunks.forEach((chunk, i) => {
      if (this.chunks.has(chunk.id)) this.remove([chunk.id]);
      const analysed = terms?.[i] ?? chunkFieldTerms(chunk);
      this.engine.addTerms(chunk.id, this.weighted(analysed));
      this.analyses.remember(chunk.id, analysed.text, [
        ...analysed.title,
        ...analysed.symbols,
        ...analysed.source,
      ]);
      this.chunks.set(chunk.id, chunk);
      const ids = this.byDocument.get(chunk.documentId) ?? new Set<string>();
      this.byDocument.set(chunk.documentId, ids.add(chunk.id));
    });
  }

  /** Removes chunks by id; unknown ids are ignored. */
  remove(chunkIds: readonly string[]): void {
    for (const id of chunkIds) {
      const chunk = this.chunks.get(id);
      if (!chunk) continue;
      this.engine.remove(id);
      this.chunks.delete(id);
      const ids = this.byDocument.get(chunk.documentId);
      ids?.delete(id);
      if (ids?.size === 0) this.byDocument.delete(chunk.documentId);
    }
  }

  /**
   * Calls `listener(documentId, chunks)` after every document change: a replace, a removal (no chunks) and,
   * per document, a rebuild. The graph and RAPTOR upkeep follow the corpus through it, whoever changed it
   * (this process's ingests, the follower catching up with other processes, the start-up rebuild).
   */
  onDocumentChange(listener: (documentId: string, chunks: readonly ChunkRecord[]) => void): void {
    this.listeners.push(listener);
  }

  /** Removes every chunk of a document. */
  removeDocument(documentId: string): void {
    this.remove([...(this.byDocument.get(documentId) ?? [])]);
    this.notify(documentId, []);
  }

  /** Re-ingest: the document's old chunks are replaced by `chunks`. */
  replaceDocument(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.remove([...(this.byDocument.get(documentId) ?? [])]);
    this.add(chunks);
    this.notify(documentId, chunks);
  }

  /**
   * `replaceDocument` in the process's shared bulk budget (`bulkSlice`), `sliceChunks` chunks (default 25) at a
   * step: the BM25 update of a large document (1,400 chunks took 70-330 ms in one call) no longer holds every other
   * request. Searches between the steps see the document partly indexed, as they would see another process's
   * ingest arrive. `terms` as for `add`.
   */
  async replaceDocumentInSlices(
    documentId: string,
    chunks: readonly ChunkRecord[],
    { terms, sliceChunks = 25 }: { terms?: readonly ChunkFieldTerms[]; sliceChunks?: number } = {},
  ): Promise<void> {
    this.remove([...(this.byDocument.get(documentId) ?? [])]);
    for (let at = 0; at < chunks.length; at += sliceChunks) {
      if (at > 0) await bulkSlice();
      this.add(chunks.slice(at, at + sliceChunks), terms?.slice(at, at + sliceChunks));
    }
    this.notify(documentId, chunks);
  }

  /** Drops everything and indexes `chunks` (start-up rebuild from the chunk store). */
  rebuild(chunks: Iterable<ChunkRecord>): void {
    const gone = [...this.byDocument.keys()];
    this.engine.clear();
    this.chunks.clear();
    this.byDocument.clear();
    this.add([...chunks]);
    if (this.listeners.length === 0) return;
    for (const documentId of gone) if (!this.byDocument.has(documentId)) this.notify(documentId, []);
    for (const [documentId, ids] of this.byDocument)
      this.notify(
        documentId,
        [...ids].map((id) => this.chunks.get(id)!),
      );
  }

  private notify(documentId: string, chunks: readonly ChunkRecord[]): void {
    for (const listener of this.listeners) listener(documentId, chunks);
  }

  /** Ids of a document's indexed chunks (empty when none). */
  chunkIdsOf(documentId: string): string[] {
    return [...(this.byDocument.get(documentId) ?? [])];
  }

  /** The chunk with this id, if indexed. */
  get(chunkId: string): ChunkRecord | undefined {
    return this.chunks.get(chunkId);
  }

  async getChunks(ids: readonly string[]): Promise<Map<string, ChunkRecord>> {
    const found = new Map<string, ChunkRecord>();
    for (const id of ids) {
      const chunk = this.chunks.get(id);
      if (chunk) found.set(id, chunk);
    }
    return found;
  }

  /** BM25 search, any query term may match (OR); best `limit` hits (default 10) of the chosen indexes. */
  search(query: string, options: SearchOptions = {}): Hit[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const terms = queryTerms(query);
    if (terms.size === 0 || limit <= 0) return [];
    const indexes = options.indexes && options.indexes.length > 0 ? new Set(options.indexes) : undefined;
    const snippetTerms = options.snippets === false ? undefined : terms;
    const accept = indexes ? (id: string) => indexes.has(this.chunks.get(id)!.index) : undefined;
    return this.engine
      .search([...terms], limit, { accept })
      .map((r) => hitFromChunk(this.chunks.get(r.id)!, r.score, 'fulltext', snippetTerms));
  }

  /**
   * BM25 search with weighted terms (already analysed: stemmed index terms), for query expansion: each term's
   * score is scaled by its weight. Snippets highlight the terms of `snippetQuery` when given.
   */
  searchTerms(
    weights: ReadonlyMap<string, number>,
    options: SearchOptions = {},
    snippetQuery?: string,
  ): Hit[] {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    if (weights.size === 0 || limit <= 0) return [];
    const indexes = options.indexes && options.indexes.length > 0 ? new Set(options.indexes) : undefined;
    const accept = indexes ? (id: string) => indexes.has(this.chunks.get(id)!.index) : undefined;
    const snippetTerms =
      options.snippets === false ? undefined : queryTerms(snippetQuery ?? [...weights.keys()].join(' '));
    return this.engine
      .search([...weights.keys()], limit, { accept, termWeights: weights })
      .map((r) => hitFromChunk(this.chunks.get(r.id)!, r.score, 'fulltext', snippetTerms));
  }

  /** How many chunks hold the index term (0: the corpus never uses it). */
  documentFrequency(term: string): number {
    return this.engine.documentFrequency(term);
  }

  /** Inverse document frequency of an index term (high for rare terms; about ln N for unknown ones). */
  idf(term: string): number {
    return this.engine.idf(term);
  }

  /** All indexed chunks (graph and tree builders read the corpus from here). */
  allChunks(): IterableIterator<ChunkRecord> {
    return this.chunks.values();
  }

  /** The chunk's BM25F fields with their boosts: symbols, title (with headings), source, text. */
  private weighted(terms: ChunkFieldTerms): AnalysedField[] {
    return [
      { terms: terms.symbols, boost: this.boosts.symbols },
      { terms: terms.title, boost: this.boosts.title },
      { terms: terms.source, boost: this.boosts.source },
      { terms: terms.text, boost: this.boosts.text },
    ];
  }
}
