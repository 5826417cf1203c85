import { chunkDisplayTitle, type ChunkRecord } from '../../models/corpusRecords';
import type { Hit, StrategyName } from './hit';
import { buildSnippet } from './snippet';

/**
 * Finds chunk records by id, so strategies that only know ids (the vector index) can return full hits.
 * The in-process FullTextIndex implements it; a mongoose Chunk model can too.
 */
export interface ChunkLookup {
  getChunks(ids: readonly string[]): Promise<Map<string, ChunkRecord>>;
}

/** Turns a chunk and its score into a hit, with a snippet highlighting `terms` (an empty one without). */
export function hitFromChunk(
  chunk: ChunkRecord,
  score: number,
  strategy: StrategyName,
  terms: ReadonlySet<string> | undefined,
): Hit {
  return {
    chunkId: chunk.id,
    documentId: chunk.documentId,
    index: chunk.index,
    source: chunk.source,
    title: chunkDisplayTitle(chunk),
    headingPath: chunk.headingPath,
    symbols: chunk.symbols,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    text: chunk.text,
    snippet: terms ? buildSnippet(chunk.text, terms) : '',
    score,
    strategy,
    foundBy: [strategy],
    ingestedBy: chunk.ingestedBy ?? null,
    ingestedAt: chunk.ingestedAt ? new Date(chunk.ingestedAt).toISOString() : null,
  };
}
