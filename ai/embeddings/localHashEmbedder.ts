import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { analyze } from '../text/terms';
import type { EmbeddingProvider } from './provider';

/** Local embedder settings. Defaults: 384 dimensions, provider id `local`. */
export interface LocalHashEmbedderOptions {
  id: string;
  dimensions: number;
}

/**
 * Feature weights: whole terms carry the meaning, character trigrams the spelling. Term bigrams were tried
 * (weights 0.15 to 0.5) and lowered recall on bench/brainEval, so phrases are left to BM25.
 */
const TERM_WEIGHT = 1;
/** Longest run of embedding work between two yields to the event loop (ms). */
const SLICE_MS = 10;
const TRIGRAM_WEIGHT = 0.5;

/** 32-bit FNV-1a over UTF-16 code units: fast, well spread, and stable across platforms and releases. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Adds a feature to a vector by signed feature hashing (FNV-1a bucket, sign from the top bit). */
export function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // Signed hashing: colliding features cancel on average instead of piling up.
  vector[hash % vector.length] += hash & 0x80000000 ? -weight : weight;
}

/** Occurrences of each distinct item. */
export function counts(items: string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const item of items) map.set(item, (map.get(item) ?? 0) + 1);
  return map;
}

/**
 * The offline embedder: no network, no weights, deterministic. A text's terms (ai/text/terms: split
 * identifiers, stop words dropped, Porter stems) become hashed features — each distinct term with weight
 * 1, and each character trigram of `^term$` with weight 0.5 / √(number of trigrams) — scaled by sublinear
 * term frequency 1 + ln(tf), with no IDF (so a vector never depends on the rest of the corpus), signed-
 * hashed (FNV-1a) into `dimensions` buckets and L2-normalised. Cosine similarity then measures shared vocabulary, tolerating inflection and
 * partial identifiers. Its model id includes the scheme version so a change opens a new vector space.
 */
export class LocalHashEmbedder implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;

  constructor(options: Partial<LocalHashEmbedderOptions> = {}) {
    this.id = options.id ?? 'local';
    this.dimensions = options.dimensions ?? 384;
    this.model = `local-hash-v1-${this.dimensions}`;
  }

  /**
   * Embeds in slices of about SLICE_MS, yielding to the event loop between them: a 1 MB ingest's chunks take about
   * a second of CPU here, which must not reach other requests as one stall.
   */
  embed(texts: string[]): Promise<number[][]> {
    return embedInSlices(texts, (text) => this.embedOne(text));
  }

  /** Synchronous embedding of one text. */
  embedOne(text: string): number[] {
    const vector = new Float64Array(this.dimensions);
    const terms = analyze(text);
    for (const [term, tf] of counts(terms)) {
      const weight = 1 + Math.log(tf);
      addFeature(vector, `u:${term}`, TERM_WEIGHT * weight);
      const padded = `^${term}$`;
      const trigrams = padded.length - 2;
      for (let i = 0; i < trigrams; i++) {
        addFeature(vector, `c:${padded.slice(i, i + 3)}`, (TRIGRAM_WEIGHT * weight) / Math.sqrt(trigrams));
      }
    }

    return normalised(vector);
  }
}

/**
 * The vector scaled to unit length (a zero vector stays zero), as a plain array. A loop, not `Array.from`: over a
 * typed array that goes through the iterator, one result object per element, which was a tenth of the
 * platform's garbage in a sync bench (every remember embeds its text and its near-duplicate candidates).
 */
export function normalised(vector: Float64Array): number[] {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm) || 1;
  const values = new Array<number>(vector.length);
  for (let i = 0; i < vector.length; i++) values[i] = vector[i] / norm;
  return values;
}

/**
 * Runs a synchronous embedder over `texts` in slices of about SLICE_MS, yielding to the event loop between them,
 * so a large ingest's embedding never reaches other requests as one stall (shared by the offline embedders).
 */
export async function embedInSlices(
  texts: string[],
  embedOne: (text: string) => number[],
): Promise<number[][]> {
  const vectors: number[][] = [];
  let sliceStarted = performance.now();
  for (const text of texts) {
    vectors.push(embedOne(text));
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStarted = performance.now();
    }
  }
  return vectors;
}
