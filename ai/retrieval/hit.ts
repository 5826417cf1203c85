import type { IndexName } from '../../models/corpusRecords';

/** Strategies of SPEC.md 1 plus `hybrid` (fulltext + semantic fused). */
export const STRATEGY_NAMES = ['fulltext', 'semantic', 'hybrid', 'graph', 'raptor', 'hyde'] as const;

/** A retrieval strategy's name. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/**
 * The one result type every strategy, the fusion and the cache speak (GraphRAG style). Ids are strings.
 * `score` is strategy-relative: BM25 for fulltext, cosine for semantic, RRF for hybrid; compare scores
 * only within one result list.
 */
export interface Hit {
  chunkId: string;
  documentId: string;
  index: IndexName;
  source: string;
  /** Display title: document title, then heading path or symbols. */
  title: string;
  headingPath: string[];
  symbols: string[];
  startLine: number;
  endLine: number;
  /** The chunk's full text, for answer context building. */
  text: string;
  /** HTML-escaped excerpt with matched query words wrapped in `<mark>` … `</mark>`. */
  snippet: string;
  score: number;
  /** The strategy that produced this list. */
  strategy: StrategyName;
  /** Strategies whose lists contained the chunk (one entry except after fusion). */
  foundBy: StrategyName[];
  /** Who ingested the chunk's document version (`user:<id>`, `service`, `seed`, `cli`), when recorded. */
  ingestedBy?: string | null;
  /** When that version was ingested (ISO time), when recorded. */
  ingestedAt?: string | null;
  /** RAPTOR: the tree level of the node that matched (0 = the chunk itself). */
  level?: number;
  /** GRAPH: the knowledge-graph entities that led to the chunk. */
  entities?: string[];
}

/** What every strategy accepts. Defaults: all indexes, limit 10, snippets built. */
export interface SearchOptions {
  indexes?: readonly IndexName[];
  limit?: number;
  /** False leaves `snippet` empty: fusion asks its inner strategies for none and builds only the final ones. */
  snippets?: boolean;
  /**
   * Called when part of the search failed and the hits come from the rest (hybrid without its semantic side,
   * semantic without one of its vector spaces): such an answer is marked degraded and never cached.
   */
  onPartialFailure?: (error: unknown) => void;
}

/** A retrieval strategy: one signature, one result type, best hit first. */
export type SearchStrategy = (query: string, options?: SearchOptions) => Promise<Hit[]>;

/** Default number of hits a strategy returns. */
export const DEFAULT_SEARCH_LIMIT = 10;
