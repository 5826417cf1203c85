import { chunkDisplayTitle, type ChunkRecord } from '../../models/corpusRecords';
import { analyze } from '../text/terms';

/**
 * A chunk's fulltext fields, analysed (`analyze`): its symbols, display title (with headings), source and text.
 * The fulltext index weighs them (BM25F) and the reranker keeps them; the chunking threads work them out beside the
 * chunks (`ChunkedDocument.terms`), so a bulk ingest does not analyse every chunk on the event loop.
 */
export interface ChunkFieldTerms {
  symbols: string[];
  title: string[];
  source: string[];
  text: string[];
}

/** The chunk's analysed fields. */
export function chunkFieldTerms(
  chunk: Pick<ChunkRecord, 'symbols' | 'title' | 'headingPath' | 'source' | 'text'>,
): ChunkFieldTerms {
  return {
    symbols: analyze(chunk.symbols.join(' ')),
    title: analyze(chunkDisplayTitle(chunk)),
    source: analyze(chunk.source),
    text: analyze(chunk.text),
  };
}
