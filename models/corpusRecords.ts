/**
 * The brain's corpus records: what the ingest input looks like and what chunking produces. The mongoose
 * Document and Chunk models mirror `DocumentRecord` and `ChunkRecord` field for field; the fulltext index,
 * vector index and search results are all keyed by the string ids defined here.
 */

/** The three indexes of SPEC.md 1. */
export const INDEX_NAMES = ['docs', 'code', 'tests'] as const;

/** One of the brain's indexes: `docs`, `code` or `tests`. */
export type IndexName = (typeof INDEX_NAMES)[number];

/** Type guard for index names arriving from requests or the CLI. */
export function isIndexName(value: unknown): value is IndexName {
  return typeof value === 'string' && (INDEX_NAMES as readonly string[]).includes(value);
}

/** One text document offered for ingestion (a file, a page, a URL's content). */
export interface SourceDocument {
  /** Source path (repo-relative, forward slashes) or URL; identifies the document for re-ingest. */
  source: string;
  /** Which index it goes to. Typed as string so validation can reject unknown names with a 400. */
  index: string;
  /** Full text content. */
  text: string;
  /** Human title; defaults to the first markdown H1 or the file name. */
  title?: string;
  tags?: string[];
}

/** How a chunk was cut, which tells readers what `headingPath` and `symbols` mean. */
export type ChunkKind = 'markdown' | 'code' | 'text';

/** A stored document: one per (index, source). Re-ingesting the same source replaces its chunks. */
export interface DocumentRecord {
  /** sha256 of `index + "\n" + source`: stable across re-ingests. */
  id: string;
  index: IndexName;
  source: string;
  title: string;
  tags: string[];
  /** sha256 of the normalised full text; an unchanged hash means re-ingest has nothing to do. */
  contentHash: string;
  byteLength: number;
  tokenCount: number;
  /** Chunk ids in document order. */
  chunkIds: string[];
  /** The model whose vector space holds this document's chunk vectors; null until embedded. */
  embeddingModel: string | null;
  /** When the current version was ingested; null until stored. */
  ingestedAt: Date | null;
  /**
   * Who ingested the current version: `user:<id>`, `service` (BRAIN_SERVICE_TOKEN), `seed` (first start), `cli`
   * (npm run brain:ingest) or `system`; absent on documents stored before provenance was recorded.
   */
  ingestedBy?: string | null;
}

/** A searchable piece of a document, sized for embedding and for an answer's context window. */
export interface ChunkRecord {
  /** sha256 of `documentId + ":" + contentHash`: an unchanged chunk keeps its id (and its vectors) on re-ingest. */
  id: string;
  documentId: string;
  index: IndexName;
  source: string;
  /** Document title; the hit title adds the heading path or symbols. */
  title: string;
  kind: ChunkKind;
  /** Markdown headings enclosing the chunk, outermost first (empty for code and text). */
  headingPath: string[];
  /** Top-level symbols the chunk defines (functions, classes, consts, describe/it titles). */
  symbols: string[];
  /** Position in the document, from 0. */
  ordinal: number;
  /** 1-based inclusive line range in the source text. */
  startLine: number;
  endLine: number;
  text: string;
  tokenCount: number;
  /** sha256 (hex) of the normalised text; used for dedup. */
  contentHash: string;
  tags: string[];
  /** Provenance of the document version holding the chunk (see DocumentRecord), stamped when it is stored. */
  ingestedBy?: string | null;
  ingestedAt?: Date | null;
}

/** The title a search hit shows for a chunk: document title, then heading path (minus a repeated H1) or symbols. */
export function chunkDisplayTitle(chunk: Pick<ChunkRecord, 'title' | 'headingPath' | 'symbols'>): string {
  const headings = chunk.headingPath[0] === chunk.title ? chunk.headingPath.slice(1) : chunk.headingPath;
  const detail = headings.length > 0 ? headings.join(' › ') : chunk.symbols.join(', ');
  return detail ? `${chunk.title} › ${detail}` : chunk.title;
}

/**
 * The text a chunk is embedded from: its display title (document, headings or symbols) and source path on
 * a first line, then the chunk text, so a section's context counts even when its body never names it.
 */
export function embeddingTextOf(
  chunk: Pick<ChunkRecord, 'title' | 'headingPath' | 'symbols' | 'source' | 'text'>,
): string {
  return `${chunkDisplayTitle(chunk)} (${chunk.source})\n${chunk.text}`;
}
