import type { ChunkRecord } from '../../models/corpusRecords';
import type { SearchStrategy, StrategyName } from '../retrieval/hit';
import { looksLikeCode, splitSentences } from '../text/sentences';
import { analyze, isStopWord, plainWords } from '../text/terms';

/**
 * A question made from the index itself, whose answer is known: the document of the chunk it was made from.
 * Real questions are asked in other words than the page's, so a pseudo-query keeps a sentence's ordinary words and
 * leaves out its rarest ones (the exact terms a paraphrase would not repeat).
 */
export interface PseudoQuery {
  query: string;
  documentId: string;
}

/**
 * How pseudo-queries are made (issue 36, item 3):
 * - `sentence`: a chunk's first prose sentence, its content words without the `dropRarest` of highest idf (stop 43:
 *   too easy, every strategy scored MRR 0.8-1.0);
 * - `common`: a prose sentence that is not the chunk's first when it has one, keeping only words the rest of the
 *   corpus uses too (each in at least `minChunks` chunks, so no word unique to the target survives), then without
 *   the `dropRarest` rarest of those: a paraphrase in the corpus's shared vocabulary;
 * - `heading`: a section heading asked as a question ("Configuring the logger" → "how do I configure the logger",
 *   "Hooks" → "what is hooks"), headings that more than one document uses left out (their answer is ambiguous);
 * - `mixed`: half `heading`, half `common`.
 */
export type PseudoQueryKind = 'sentence' | 'common' | 'heading' | 'mixed';

/** Calibration settings. Defaults: 40 `sentence` pseudo-queries, 2 rarest words left out, lists 20 deep, weights 0.25-1. */
export interface CalibrationOptions {
  queries: number;
  dropRarest: number;
  depth: number;
  minWeight: number;
  kind: PseudoQueryKind;
  /** `common`: chunks a word must occur in to be kept (default 3: the target's and at least two others). */
  minChunks: number;
  /** Content words a sentence's pseudo-query keeps at most, in their order (default 12; real questions hold 3-6). */
  maxWords: number;
}

const DEFAULTS: CalibrationOptions = {
  queries: 40,
  dropRarest: 2,
  depth: 20,
  minWeight: 0.25,
  kind: 'sentence',
  minChunks: 3,
  maxWords: 12,
};

/** What pseudo-queries are made from besides the chunks: the index's idf and, for `common`, chunk frequencies. */
export interface CorpusStatistics {
  idf: (term: string) => number;
  /** Chunks holding an index term; without it `common` keeps every word. */
  documentFrequency?: (term: string) => number;
}

/** Prose sentences of a chunk with 8 to 40 words. */
function proseSentences(chunk: ChunkRecord): string[] {
  return splitSentences(chunk.text).filter((s) => {
    const words = plainWords(s).length;
    return !looksLikeCode(s) && words >= 8 && words <= 40;
  });
}

const contentWords = (text: string) => [
  ...new Set(plainWords(text).filter((w) => !isStopWord(w) && w.length > 2)),
];

/** A word's rarity: the highest idf of its index terms. */
const rarityOf = (idf: (term: string) => number) => (word: string) => Math.max(0, ...analyze(word).map(idf));

/** Content words without the `drop` rarest, in their order, at most `max`. */
function withoutRarest(words: string[], drop: number, idf: (term: string) => number, max: number): string[] {
  const rarity = rarityOf(idf);
  const rarest = new Set([...words].sort((a, b) => rarity(b) - rarity(a)).slice(0, drop));
  return words.filter((w) => !rarest.has(w)).slice(0, max);
}

function sentenceQuery(
  chunk: ChunkRecord,
  stats: CorpusStatistics,
  o: CalibrationOptions,
): string | undefined {
  const sentence = proseSentences(chunk)[0];
  if (!sentence) return undefined;
  const words = contentWords(sentence);
  if (words.length < 4 + o.dropRarest) return undefined;
  return withoutRarest(words, o.dropRarest, stats.idf, o.maxWords).join(' ');
}

function commonQuery(chunk: ChunkRecord, stats: CorpusStatistics, o: CalibrationOptions): string | undefined {
  const sentences = proseSentences(chunk);
  const sentence = sentences[1] ?? sentences[0];
  if (!sentence) return undefined;
  const df = stats.documentFrequency;
  const shared = contentWords(sentence).filter(
    (w) => !df || analyze(w).every((term) => df(term) >= o.minChunks),
  );
  if (shared.length < 3 + o.dropRarest) return undefined;
  return withoutRarest(shared, o.dropRarest, stats.idf, o.maxWords).join(' ');
}

/** "Configuring" → "configur", "Setting" → "set", "Using" → "use" (what a stemmer matches), or undefined. */
function gerundBase(word: string): string | undefined {
  if (!/^[a-z]{2,}ing$/.test(word)) return undefined;
  const stem = word.slice(0, -3);
  if (!/[aeiouy]/.test(stem)) return undefined; // "string", "spring", "thing"
  if (stem.length >= 4 && /([b-df-hj-np-tv-z])\1$/.test(stem)) return stem.slice(0, -1);
  return stem.length <= 3 && /[aeiou][b-df-hj-np-tv-z]$/.test(stem) ? `${stem}e` : stem;
}

/** A heading asked as a question, or undefined for a heading of fewer than one content word or more than 8. */
export function headingQuestion(heading: string): string | undefined {
  const words = heading
    .replace(/[`*_#[\]()]/g, ' ')
    .split(/\s+/)
    .map((w) => w.toLowerCase().replace(/[^\p{L}\p{N}.-]/gu, ''))
    .filter(Boolean);
  const content = contentWords(words.join(' '));
  if (content.length < 1 || content.length > 8) return undefined;
  const base = gerundBase(words[0]);
  if (base) return `how do I ${[base, ...words.slice(1)].join(' ')}`;
  if (/^(how|what|why|when|where|which|can|should|do|does|is|are)$/.test(words[0])) return words.join(' ');
  return `what is ${words.join(' ')}`;
}

/** The innermost heading of a chunk that is not the document's title. */
const headingOf = (chunk: ChunkRecord) => {
  const heading = chunk.headingPath[chunk.headingPath.length - 1];
  return heading && heading !== chunk.title ? heading.trim() : undefined;
};

/**
 * Pseudo-queries from an index's chunks: a fixed sample (chunks in order of their id, a content hash, so the sample
 * is spread over the corpus and the same for the same corpus), at most one a document, made as `kind` says
 * (`PseudoQueryKind`); each is answered by the chunk's document.
 */
export function pseudoQueries(
  chunks: Iterable<ChunkRecord>,
  stats: CorpusStatistics | ((term: string) => number),
  options: Partial<CalibrationOptions> = {},
): PseudoQuery[] {
  const o = { ...DEFAULTS, ...options };
  const corpus: CorpusStatistics = typeof stats === 'function' ? { idf: stats } : stats;
  const sorted = [...chunks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (o.kind === 'mixed') {
    const headings = pseudoQueries(sorted, corpus, {
      ...o,
      kind: 'heading',
      queries: Math.ceil(o.queries / 2),
    });
    const taken = new Set(headings.map((q) => q.documentId));
    const common = pseudoQueries(
      sorted.filter((c) => !taken.has(c.documentId)),
      corpus,
      { ...o, kind: 'common', queries: o.queries - headings.length },
    );
    return [...headings, ...common];
  }
  // Headings more than one document uses ("Usage", "Example") do not name one answer.
  const headingDocuments = new Map<string, Set<string>>();
  if (o.kind === 'heading')
    for (const chunk of sorted) {
      const heading = headingOf(chunk)?.toLowerCase();
      if (!heading) continue;
      const documents = headingDocuments.get(heading) ?? new Set<string>();
      documents.add(chunk.documentId);
      headingDocuments.set(heading, documents);
    }
  const make = (chunk: ChunkRecord): string | undefined => {
    if (o.kind === 'sentence') return sentenceQuery(chunk, corpus, o);
    if (o.kind === 'common') return commonQuery(chunk, corpus, o);
    const heading = headingOf(chunk);
    if (!heading || (headingDocuments.get(heading.toLowerCase())?.size ?? 0) > 1) return undefined;
    return headingQuestion(heading);
  };
  const made: PseudoQuery[] = [];
  const used = new Set<string>();
  for (const chunk of sorted) {
    if (made.length >= o.queries) break;
    if (used.has(chunk.documentId)) continue;
    const query = make(chunk);
    if (!query) continue;
    used.add(chunk.documentId);
    made.push({ query, documentId: chunk.documentId });
  }
  return made;
}

/** Mean reciprocal rank of each strategy's first hit of the pseudo-query's document (0 when absent). */
export async function strategyMrr(
  queries: readonly PseudoQuery[],
  strategies: Partial<Record<StrategyName, SearchStrategy>>,
  names: readonly StrategyName[],
  depth = DEFAULTS.depth,
): Promise<Partial<Record<StrategyName, number>>> {
  const mrr: Partial<Record<StrategyName, number>> = {};
  for (const name of names) {
    const strategy = strategies[name];
    if (!strategy || queries.length === 0) continue;
    let sum = 0;
    for (const q of queries) {
      const hits = await strategy(q.query, { limit: depth, snippets: false });
      const at = hits.findIndex((hit) => hit.documentId === q.documentId);
      if (at >= 0) sum += 1 / (at + 1);
    }
    mrr[name] = sum / queries.length;
  }
  return mrr;
}

/**
 * Per-strategy fusion weights from measured MRRs: each strategy's MRR over the best one's, at least `minWeight`
 * (a strategy never drops out of a plan that names it); all 1 when nothing was measured.
 */
export function weightsFromMrr(
  mrr: Partial<Record<StrategyName, number>>,
  minWeight = DEFAULTS.minWeight,
): Partial<Record<StrategyName, number>> {
  const best = Math.max(0, ...Object.values(mrr).map((v) => v ?? 0));
  return Object.fromEntries(
    Object.entries(mrr).map(([name, v]) => [name, best > 0 ? Math.max(minWeight, (v ?? 0) / best) : 1]),
  ) as Partial<Record<StrategyName, number>>;
}

/** What a calibrator reads: the index's chunks and idf, and the strategies it measures. */
export interface CalibratorDeps {
  chunks: () => Iterable<ChunkRecord>;
  idf: (term: string) => number;
  /** Chunks holding an index term (the `common` pseudo-queries read it). */
  documentFrequency?: (term: string) => number;
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  /** Strategies measured (those available). */
  names: readonly StrategyName[];
  /** Quiet time after the last corpus change before calibrating (default 3 s). */
  quietMs?: number;
  options?: Partial<CalibrationOptions>;
  onError?: (error: unknown) => void;
}

/**
 * Keeps per-strategy fusion weights calibrated to the index: after the corpus changes (`changed`, called from the
 * fulltext index's change feed) and then stays quiet for `quietMs`, it makes pseudo-queries from the chunks,
 * measures every strategy's MRR on them and turns those into weights (`weightsFromMrr`). Until the first
 * calibration ends, `weights()` is undefined (the plans' own weights apply); a calibration in flight when the corpus
 * changes again is followed by another. The timer never keeps a process alive.
 */
export class RouterCalibrator {
  private current?: Partial<Record<StrategyName, number>>;
  private measured?: Partial<Record<StrategyName, number>>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stale = false;

  constructor(private readonly deps: CalibratorDeps) {}

  /** The calibrated weights, or undefined before the first calibration. */
  weights(): Partial<Record<StrategyName, number>> | undefined {
    return this.current;
  }

  /** The MRR each strategy measured on the last calibration's pseudo-queries. */
  mrr(): Partial<Record<StrategyName, number>> | undefined {
    return this.measured;
  }

  /** Of `candidates`, the strategy with the highest MRR on the last calibration (the first on ties), if measured. */
  strongest(candidates: readonly StrategyName[]): StrategyName | undefined {
    const mrr = this.measured;
    if (!mrr) return undefined;
    const measured = candidates.filter((name) => mrr[name] !== undefined);
    return measured.length
      ? measured.reduce((best, name) => (mrr[name]! > mrr[best]! ? name : best))
      : undefined;
  }

  /** The corpus changed: calibrate again once it is quiet. */
  changed(): void {
    this.stale = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.calibrate(), this.deps.quietMs ?? 3000);
    this.timer.unref();
  }

  /** Calibrates now (after one in flight); resolves when the weights are up to date. */
  async calibrate(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.running) await this.running;
    this.stale = false;
    this.running = (async () => {
      try {
        const { idf, documentFrequency } = this.deps;
        const queries = pseudoQueries(this.deps.chunks(), { idf, documentFrequency }, this.deps.options);
        const depth = this.deps.options?.depth;
        const mrr = await strategyMrr(queries, this.deps.strategies, this.deps.names, depth);
        if (Object.keys(mrr).length > 0) {
          this.measured = mrr;
          this.current = weightsFromMrr(mrr, this.deps.options?.minWeight);
        }
      } catch (error) {
        this.deps.onError?.(error);
      } finally {
        this.running = undefined;
      }
    })();
    await this.running;
    if (this.stale && !this.timer) await this.calibrate();
  }

  /** Stops a pending calibration. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
