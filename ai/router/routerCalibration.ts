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

/** Calibration settings. Defaults: 40 pseudo-queries, 2 rarest words left out, lists 20 deep, weights 0.25-1. */
export interface CalibrationOptions {
  queries: number;
  dropRarest: number;
  depth: number;
  minWeight: number;
}

const DEFAULTS: CalibrationOptions = { queries: 40, dropRarest: 2, depth: 20, minWeight: 0.25 };

/** The first prose sentence of a chunk with 8 to 40 words, if any. */
function proseSentence(chunk: ChunkRecord): string | undefined {
  return splitSentences(chunk.text).find((s) => {
    const words = plainWords(s).length;
    return !looksLikeCode(s) && words >= 8 && words <= 40;
  });
}

/**
 * Pseudo-queries from an index's chunks: a fixed sample (chunks in order of their id, a content hash, so the sample
 * is spread over the corpus and the same for the same corpus), at most one a document; each is the chunk's first
 * prose sentence's content words without the `dropRarest` of highest idf, at most 12 words.
 */
export function pseudoQueries(
  chunks: Iterable<ChunkRecord>,
  idf: (term: string) => number,
  options: Partial<CalibrationOptions> = {},
): PseudoQuery[] {
  const { queries, dropRarest } = { ...DEFAULTS, ...options };
  const sorted = [...chunks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const made: PseudoQuery[] = [];
  const used = new Set<string>();
  for (const chunk of sorted) {
    if (made.length >= queries) break;
    if (used.has(chunk.documentId)) continue;
    const sentence = proseSentence(chunk);
    if (!sentence) continue;
    const words = [...new Set(plainWords(sentence).filter((w) => !isStopWord(w) && w.length > 2))];
    if (words.length < 4 + dropRarest) continue;
    const rarity = (word: string) => Math.max(0, ...analyze(word).map(idf));
    const rarest = new Set([...words].sort((a, b) => rarity(b) - rarity(a)).slice(0, dropRarest));
    used.add(chunk.documentId);
    made.push({
      query: words
        .filter((w) => !rarest.has(w))
        .slice(0, 12)
        .join(' '),
      documentId: chunk.documentId,
    });
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
        const queries = pseudoQueries(this.deps.chunks(), this.deps.idf, this.deps.options);
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
