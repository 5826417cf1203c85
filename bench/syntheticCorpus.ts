import { chunkIdFor, contentHash, documentIdFor } from '../ai/chunking/contentHash';
import { INDEX_NAMES, type ChunkRecord } from '../models/corpusRecords';
import { seededRandom } from '../platform/seededRandom';

/**
 * A deterministic synthetic corpus that behaves like text: words follow Zipf's law (rank r drawn with
 * probability ∝ 1/r) and each chunk is about one of 64 topics — half its words come from the topic's own
 * 200-word vocabulary, half from the global one. Queries are 2-5 words, mostly from one topic's vocabulary,
 * never from the 100 most frequent words (those play the stop words the analyzer would drop).
 */
export class SyntheticCorpus {
  /** mulberry32 (platform/seededRandom): small, fast and deterministic, so runs are comparable. */
  private readonly random = seededRandom(42);
  private readonly vocabulary: string[];
  private readonly globalCumulative: number[];
  private readonly topicCumulative: number[];
  private readonly stopWords: Set<string>;
  static readonly TOPICS = 64;
  static readonly TOPIC_WORDS = 200;

  constructor(vocabularySize = 8000) {
    const syllables = [
      'ka',
      'ro',
      'mi',
      'tel',
      'vor',
      'an',
      'sul',
      'pe',
      'dri',
      'on',
      'ex',
      'lum',
      'ga',
      'zen',
      'qui',
      'bar',
    ];
    this.vocabulary = Array.from({ length: vocabularySize }, (_, i) => {
      let word = '';
      for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length))
        word += syllables[n % syllables.length];
      return word;
    });
    this.globalCumulative = zipfCumulative(vocabularySize);
    this.topicCumulative = zipfCumulative(SyntheticCorpus.TOPIC_WORDS);
    this.stopWords = new Set(this.vocabulary.slice(0, 100));
  }

  /** Chunk number `i`: 120 words, topic `i mod 64`, spread over the three indexes, 8 chunks per file. */
  chunk(i: number): ChunkRecord {
    const topic = i % SyntheticCorpus.TOPICS;
    const index = INDEX_NAMES[i % 3];
    const source = `synthetic/${index}/file${Math.floor(i / 8)}.txt`;
    const words = Array.from({ length: 120 }, () =>
      this.random() < 0.5 ? this.topicWord(topic) : this.globalWord(),
    );
    const text = words.join(' ');
    const documentId = documentIdFor(index, source);
    const hash = contentHash(text);
    return {
      id: chunkIdFor(documentId, hash),
      documentId,
      index,
      source,
      title: `File ${Math.floor(i / 8)}`,
      kind: 'text',
      headingPath: [],
      symbols: [],
      ordinal: i % 8,
      startLine: 1,
      endLine: 1,
      text,
      tokenCount: 240,
      contentHash: hash,
      tags: [],
    };
  }

  /** A query of 2-5 words about a random topic. */
  query(): string {
    const topic = Math.floor(this.random() * SyntheticCorpus.TOPICS);
    const length = 2 + Math.floor(this.random() * 4);
    return Array.from({ length }, () =>
      this.random() < 0.8 ? this.topicWord(topic) : this.contentWord(),
    ).join(' ');
  }

  private topicWord(topic: number): string {
    const j = sample(this.topicCumulative, this.random());
    return this.vocabulary[100 + ((topic * 97 + j * 31) % (this.vocabulary.length - 100))];
  }

  private globalWord(): string {
    return this.vocabulary[sample(this.globalCumulative, this.random())];
  }

  private contentWord(): string {
    for (;;) {
      const word = this.globalWord();
      if (!this.stopWords.has(word)) return word;
    }
  }
}

function zipfCumulative(size: number): number[] {
  let sum = 0;
  return Array.from({ length: size }, (_, i) => (sum += 1 / (i + 1)));
}

/** Index of the first cumulative weight reaching `fraction` of the total (binary search). */
function sample(cumulative: number[], fraction: number): number {
  const target = fraction * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
