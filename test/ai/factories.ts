import { chunkIdFor, contentHash, documentIdFor } from '../../ai/chunking/contentHash';
import type { ChunkRecord, SourceDocument } from '../../models/corpusRecords';
import type { Hit } from '../../ai/retrieval/hit';

/** A document offered for ingestion. */
export function buildSourceDocument(overrides: Partial<SourceDocument> = {}): SourceDocument {
  return {
    source: 'docs/guide.md',
    index: 'docs',
    text: '# Guide\n\nThe brain answers questions.\n',
    ...overrides,
  };
}

/** A stored chunk whose ids and hash follow from its source, index and text. */
export function buildChunk(overrides: Partial<ChunkRecord> = {}): ChunkRecord {
  const index = overrides.index ?? 'docs';
  const source = overrides.source ?? 'docs/guide.md';
  const text = overrides.text ?? 'The brain answers questions about the platform.';
  const documentId = overrides.documentId ?? documentIdFor(index, source);
  const hash = contentHash(text);
  return {
    id: chunkIdFor(documentId, hash),
    documentId,
    index,
    source,
    title: 'Guide',
    kind: 'markdown',
    headingPath: [],
    symbols: [],
    ordinal: 0,
    startLine: 1,
    endLine: 1,
    text,
    tokenCount: 9,
    contentHash: hash,
    tags: [],
    ...overrides,
  };
}

/** A search hit. */
export function buildHit(overrides: Partial<Hit> = {}): Hit {
  return {
    chunkId: 'chunk-1',
    documentId: 'doc-1',
    index: 'docs',
    source: 'docs/guide.md',
    title: 'Guide',
    headingPath: [],
    symbols: [],
    startLine: 1,
    endLine: 3,
    text: 'The brain answers questions.',
    snippet: 'The <mark>brain</mark> answers questions.',
    score: 1,
    strategy: 'fulltext',
    foundBy: ['fulltext'],
    ...overrides,
  };
}

/**
 * Chunks of one topic, one per word, each naming the topic's service and a `topicWord` identifier: graph and entity
 * tests find the same entities in them.
 */
export function topicChunks(topic: string, words: string[], documentId = `doc-${topic}`): ChunkRecord[] {
  return words.map((word, i) =>
    buildChunk({
      documentId,
      source: `docs/${topic}.md`,
      headingPath: [`${topic} ${word}`],
      text: `The \`${topic}Service\` uses ${word} handling. \`${topic}${word}\` covers ${topic} ${word} handling twice: ${topic} ${word}.`,
      ordinal: i,
    }),
  );
}
