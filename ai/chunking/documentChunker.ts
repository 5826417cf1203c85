import { CODE_EXTENSIONS, codeSections } from './codeChunker';
import { chunkIdFor, contentHash, documentIdFor } from './contentHash';
import { markdownSections, markdownTitle } from './markdownChunker';
import type { ChunkKind, ChunkRecord, DocumentRecord } from '../../models/corpusRecords';
import type { ChunkFieldTerms } from '../fulltext/chunkFields';
import { DEFAULT_CHUNK_BUDGET, fitSections, type ChunkBudget, type Section } from './sectionSplitter';
import { tiktokenCounter, type TokenCounter } from './tokenCounter';
import type { ValidDocument } from './validation';

/** Chunking options. Defaults: 512-token chunks, 64-token overlap, code neighbours merged up to 128 tokens. */
export interface ChunkerOptions {
  budget: ChunkBudget;
  counter: TokenCounter;
  /** Adjacent small code sections (one-line consts, imports) are merged while together under this size. */
  mergeBelowTokens: number;
}

export const DEFAULT_CHUNKER_OPTIONS: ChunkerOptions = {
  budget: DEFAULT_CHUNK_BUDGET,
  counter: tiktokenCounter,
  mergeBelowTokens: 128,
};

/**
 * A chunked document: the record to store and its chunks in order, deduplicated by content hash; from a chunking
 * thread also each chunk's analysed fulltext fields (`terms[i]` for `chunks[i]`), which are not stored.
 */
export interface ChunkedDocument {
  document: DocumentRecord;
  chunks: ChunkRecord[];
  terms?: ChunkFieldTerms[];
}

const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdx'];

/** The chunker a source gets, from its extension (a URL's path counts): markdown, code, else text. */
export function chunkKindFor(source: string): ChunkKind {
  const path = source.replace(/[?#].*$/, '').toLowerCase();
  if (MARKDOWN_EXTENSIONS.some((ext) => path.endsWith(ext))) return 'markdown';
  if (CODE_EXTENSIONS.some((ext) => path.endsWith(ext))) return 'code';
  return 'text';
}

function fileName(source: string): string {
  return (
    source
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .pop() ?? source
  );
}

/** Merges neighbouring sections while their combined size stays under `limit`, re-slicing the source lines. */
function mergeSmallNeighbours(
  sections: Section[],
  lines: string[],
  limit: number,
  counter: TokenCounter,
): Section[] {
  const merged: (Section & { tokens: number })[] = [];
  for (const section of sections) {
    const tokens = counter.count(section.text);
    const previous = merged[merged.length - 1];
    if (previous && previous.tokens + tokens <= limit) {
      const endLine = section.startLine + section.text.split('\n').length - 1;
      previous.text = lines.slice(previous.startLine - 1, endLine).join('\n');
      previous.symbols = [...previous.symbols, ...section.symbols];
      previous.tokens = counter.count(previous.text);
      continue;
    }
    merged.push({ ...section, tokens });
  }
  return merged.map(({ tokens: _tokens, ...section }) => section);
}

function sectionsFor(kind: ChunkKind, text: string, source: string, options: ChunkerOptions): Section[] {
  if (kind === 'markdown') return markdownSections(text);
  if (kind === 'code') {
    const fits = (sectionText: string) => options.counter.count(sectionText) <= options.budget.maxTokens;
    const sections = codeSections(text, fileName(source), fits);
    return mergeSmallNeighbours(sections, text.split('\n'), options.mergeBelowTokens, options.counter);
  }
  return [{ text, startLine: 1, headingPath: [], symbols: [] }];
}

/**
 * Cuts a validated document into chunks: markdown by headings (heading path kept), TS/JS by top-level
 * symbols (tests index files too: describe/it blocks are symbols), anything else by paragraphs; every
 * chunk within the token budget. Chunks whose normalised text repeats an earlier chunk are dropped.
 * Pure: nothing is stored; ids are derived from (index, source) and content so re-ingest is stable.
 */
export function chunkDocument(
  doc: ValidDocument,
  options: ChunkerOptions = DEFAULT_CHUNKER_OPTIONS,
): ChunkedDocument {
  const text = doc.text.replace(/\r\n?/g, '\n');
  const kind = chunkKindFor(doc.source);
  const documentId = documentIdFor(doc.index, doc.source);
  const title =
    doc.title?.trim() || (kind === 'markdown' ? markdownTitle(text) : undefined) || fileName(doc.source);
  const tags = [...new Set(doc.tags ?? [])];

  const seen = new Set<string>();
  const chunks: ChunkRecord[] = [];
  for (const piece of fitSections(
    sectionsFor(kind, text, doc.source, options),
    options.budget,
    options.counter,
  )) {
    const hash = contentHash(piece.text);
    if (seen.has(hash)) continue;
    seen.add(hash);
    chunks.push({
      id: chunkIdFor(documentId, hash),
      documentId,
      index: doc.index,
      source: doc.source,
      title,
      kind,
      headingPath: piece.headingPath,
      symbols: piece.symbols,
      ordinal: chunks.length,
      startLine: piece.startLine,
      endLine: piece.endLine,
      text: piece.text,
      tokenCount: piece.tokenCount,
      contentHash: hash,
      tags,
    });
  }

  const document: DocumentRecord = {
    id: documentId,
    index: doc.index,
    source: doc.source,
    title,
    tags,
    contentHash: contentHash(text),
    byteLength: Buffer.byteLength(text, 'utf8'),
    tokenCount: chunks.reduce((sum, c) => sum + c.tokenCount, 0),
    chunkIds: chunks.map((c) => c.id),
    embeddingModel: null,
    ingestedAt: null,
  };
  return { document, chunks };
}
