import pino, { type Logger } from 'pino';
import type { EmbeddingChain } from '../embeddings/embeddingChain';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import { queryTerms } from '../text/terms';
import { hitFromChunk, type ChunkLookup } from './chunkLookup';
import { reciprocalRankFusion, RRF_K } from './fusion';
import { DEFAULT_SEARCH_LIMIT, type Hit, type SearchStrategy } from './hit';
import { buildSnippet } from './snippet';
import type { VectorIndex } from './vectorIndex';

/** FULLTEXT: BM25 over the in-process index; the fastest path. */
export function createFulltextStrategy(fullText: Pick<FullTextIndex, 'search'>): SearchStrategy {
  return async (query, options = {}) => fullText.search(query, options);
}

/** What the SEMANTIC strategy needs: a query embedder, the vector index and a way to load chunks. */
export interface SemanticStrategyDeps {
  embeddings: Pick<EmbeddingChain, 'embedQuery'>;
  vectors: VectorIndex;
  chunks: ChunkLookup;
  logger?: Logger;
}

/**
 * SEMANTIC: nearest chunks by cosine, never comparing vectors of different models. The query is embedded
 * once per vector space that holds vectors (by a provider of that space's model) and searched in that
 * space only. Normally that is one space and the scores are cosines; when documents sit in several spaces
 * (some were ingested while the preferred provider was down) the per-space rankings are fused with RRF
 * rather than mixing incomparable cosines. A space whose providers are all unavailable is skipped (logged);
 * if every space fails, the first error is thrown. An empty corpus gives no hits, not an error.
 */
export function createSemanticStrategy(deps: SemanticStrategyDeps): SearchStrategy {
  const logger = deps.logger ?? pino({ level: 'silent' });
  return async (query, options = {}) => {
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const models = (await deps.vectors.spaces()).filter((s) => s.count > 0).map((s) => s.model);
    if (models.length === 0 || limit <= 0 || query.trim() === '') return [];
    const terms = options.snippets === false ? undefined : queryTerms(query);
    const settled = await Promise.allSettled(
      models.map(async (model) => {
        const embedding = await deps.embeddings.embedQuery(query, [model]);
        const matches = await deps.vectors.search(model, embedding.vector, {
          indexes: options.indexes,
          limit,
        });
        const chunks = await deps.chunks.getChunks(matches.map((m) => m.chunkId));
        return matches.flatMap((m) => {
          const chunk = chunks.get(m.chunkId);
          return chunk ? [hitFromChunk(chunk, m.score, 'semantic', terms)] : [];
        });
      }),
    );
    const lists = settled.flatMap((outcome, i) => {
      if (outcome.status === 'fulfilled') return [outcome.value];
      logger.warn({ err: outcome.reason, model: models[i] }, 'semantic search: vector space skipped');
      return [];
    });
    if (lists.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    const failure = settled.find((outcome) => outcome.status === 'rejected');
    if (failure) options.onPartialFailure?.(failure.reason);
    return lists.length === 1 ? lists[0] : reciprocalRankFusion(lists, RRF_K, limit, 'semantic');
  };
}

/** Hybrid settings. Defaults: each list fetched 3 × the limit (at least 30) deep, RRF k = 60. */
export interface HybridOptions {
  depthFactor: number;
  minDepth: number;
  k: number;
  logger: Logger;
}

/**
 * HYBRID: runs fulltext and semantic side by side on deeper lists (without snippets) and fuses them with
 * reciprocal-rank fusion; snippets are built for the fused hits only. If one side fails (say, no embedding
 * provider is reachable) the other's ranking is returned, still marked `hybrid`, the failure is logged and
 * reported through `onPartialFailure`; if both fail, the first error is thrown.
 */
export function createHybridStrategy(
  fulltext: SearchStrategy,
  semantic: SearchStrategy,
  options: Partial<HybridOptions> = {},
): SearchStrategy {
  const { depthFactor = 3, minDepth = 30, k = RRF_K } = options;
  const logger = options.logger ?? pino({ level: 'silent' });
  return async (query, searchOptions = {}) => {
    const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
    const depth = Math.max(limit * depthFactor, minDepth);
    const settled = await Promise.allSettled([
      fulltext(query, { ...searchOptions, limit: depth, snippets: false }),
      semantic(query, { ...searchOptions, limit: depth, snippets: false }),
    ]);
    const lists: Hit[][] = [];
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled') lists.push(outcome.value);
      else logger.warn({ err: outcome.reason }, 'hybrid search: one strategy failed');
    }
    if (lists.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    const failure = settled.find((outcome) => outcome.status === 'rejected');
    if (failure) searchOptions.onPartialFailure?.(failure.reason);
    const fused = reciprocalRankFusion(lists, k, limit);
    if (searchOptions.snippets === false) return fused;
    const terms = queryTerms(query);
    return fused.map((hit) => ({ ...hit, snippet: buildSnippet(hit.text, terms) }));
  };
}
