import type { IndexName } from '../../models/corpusRecords';
import { askLatency, askTotal } from '../../platform/retrievalMetrics';
import type { GenerationChain } from '../llm/generationChain';
import { ExtractiveGenerator } from '../llm/extractiveGenerator';
import type { AdaptiveRouter, Route, V2Strategy } from '../router/adaptiveRouter';
import {
  answerMessages,
  buildContext,
  DEFAULT_MAX_CONTEXT_TOKENS,
  type ContextPassage,
} from './contextBuilder';
import { performance } from 'node:perf_hooks';
import { queryTerms } from '../text/terms';
import {
  CALIBRATED_CONFIDENCE,
  evidenceFeatures,
  NEURAL_CONFIDENCE,
  shouldAnswer,
  type ConfidenceModel,
  type EvidenceFeatures,
} from './answerConfidence';

/** The answer when the evidence is too weak: the service abstains instead of guessing. */
export const ABSTENTION = 'The indexed documents do not say.';

/** A question as POST /brain/ask passes it on. Defaults: auto routing, all indexes, 2000 context tokens. */
export interface AskRequest {
  question: string;
  indexes?: IndexName[];
  strategy?: V2Strategy;
  maxContextTokens?: number;
}

/** A passage the answer cites as `[n]`, with the sentence it rests on. */
export interface Citation {
  n: number;
  chunkId: string;
  source: string;
  title: string;
  startLine: number;
  endLine: number;
  quote: string;
}

/** The answer, its citations (every `[n]` of the answer is one of them), the route and the writer. */
export interface AskResult {
  answer: string;
  citations: Citation[];
  route: Route;
  model: string;
  grounded: boolean;
  degraded: boolean;
  /** What the decision to answer or abstain rested on (not part of the HTTP answer). */
  evidence?: EvidenceFeatures;
}

/**
 * How close in meaning the question is to each of the sentences (cosines, in order): the sentence encoder's, in
 * services/brain. A port, so the answerer works without one (the lexical model then decides alone).
 */
export type SentenceSimilarity = (question: string, sentences: readonly string[]) => Promise<number[]>;

/**
 * Answerer settings. Defaults: 8 hits searched; the confidence models calibrated on the multi-corpus eval: with the
 * encoder's similarity when the answerer has one (`NEURAL_CONFIDENCE`), and the lexical model
 * (`CALIBRATED_CONFIDENCE`), which decides when the encoder is absent or fails.
 */
export interface QuestionAnswererOptions {
  searchLimit: number;
  confidence: ConfidenceModel;
  lexicalConfidence: ConfidenceModel;
}

/**
 * Retrieval-augmented question answering (SPEC 4.2 `/brain/ask`): search through the adaptive router, build
 * the context within the token budget (separately from searching), measure the evidence — the best
 * sentence's idf-weighted coverage of the question — and abstain below the threshold, or when the question names
 * something (an acronym, a capitalised word) no passage mentions (`questionNames.ts`); otherwise ask the
 * generation chain (an LLM when configured, else the extractive generator) and keep only citations that
 * exist. Citations are renumbered 1..m in order of first use; an LLM answer without any valid citation is
 * replaced by the extractive one, so a grounded answer always cites. Feeds `brain_ask_total{outcome,model}`
 * and `brain_ask_latency_seconds`.
 */
export class QuestionAnswerer {
  private readonly options: QuestionAnswererOptions;
  private readonly extractive: ExtractiveGenerator;

  constructor(
    private readonly deps: {
      router: AdaptiveRouter;
      generation: GenerationChain;
      idf: (term: string) => number;
      /** How many chunks hold an index term: the `unseen` evidence (the question's terms the corpus never uses). */
      documentFrequency?: (term: string) => number;
      similarity?: SentenceSimilarity;
    },
    options: Partial<QuestionAnswererOptions> = {},
  ) {
    this.options = {
      searchLimit: 8,
      confidence: deps.similarity ? NEURAL_CONFIDENCE : CALIBRATED_CONFIDENCE,
      lexicalConfidence: CALIBRATED_CONFIDENCE,
      ...options,
    };
    this.extractive = new ExtractiveGenerator({ idf: deps.idf });
  }

  async ask(request: AskRequest): Promise<AskResult> {
    const started = performance.now();
    const { route, hits, degraded, agreement } = await this.deps.router.search(request.question, {
      strategy: request.strategy ?? 'auto',
      indexes: request.indexes,
      limit: this.options.searchLimit,
    });
    const passages = buildContext(hits, request.maxContextTokens ?? DEFAULT_MAX_CONTEXT_TOKENS);
    const best = this.extractive.rank(request.question, passages, 1)[0];
    let result: Omit<AskResult, 'route' | 'degraded'>;
    const similarity = best ? await this.similarity(request.question, passages) : undefined;
    const features = evidenceFeatures(
      request.question,
      passages,
      best?.relevance ?? 0,
      agreement,
      similarity,
      this.unseenTerms(request.question),
    );
    const model = similarity === undefined ? this.options.lexicalConfidence : this.options.confidence;
    if (!best || !shouldAnswer(features, model)) {
      result = { answer: ABSTENTION, citations: [], model: 'none', grounded: false };
    } else {
      result = await this.answer(request.question, passages);
    }
    askTotal.inc({ outcome: result.grounded ? 'answered' : 'abstained', model: result.model });
    askLatency.observe((performance.now() - started) / 1000);
    return { ...result, route, degraded, evidence: features };
  }

  /** How many of the question's index terms no chunk holds (0 without a document-frequency port). */
  private unseenTerms(question: string): number {
    const documentFrequency = this.deps.documentFrequency;
    if (!documentFrequency) return 0;
    return [...queryTerms(question)].filter((term) => documentFrequency(term) === 0).length;
  }

  /**
   * The encoder's similarity of the question to the closest sentence the extractive answer would state (the
   * sentences the confidence judges are the answer's own); undefined without an encoder or when it fails, so the
   * lexical model decides.
   */
  private async similarity(question: string, passages: ContextPassage[]): Promise<number | undefined> {
    if (!this.deps.similarity) return undefined;
    const sentences = this.extractive.choose(question, passages).map((s) => s.text);
    if (sentences.length === 0) return 0;
    try {
      return Math.max(...(await this.deps.similarity(question, sentences)));
    } catch {
      return undefined;
    }
  }

  private async answer(
    question: string,
    passages: ContextPassage[],
  ): Promise<Omit<AskResult, 'route' | 'degraded'>> {
    const generation = await this.deps.generation.generate({
      task: 'answer',
      messages: answerMessages(question, passages),
      question,
      passages,
    });
    if (generation.text.trim() === ABSTENTION) {
      return { answer: ABSTENTION, citations: [], model: generation.model, grounded: false };
    }
    const cited = this.cite(generation.text, passages, question);
    if (cited.citations.length > 0) return { ...cited, model: generation.model, grounded: true };
    const fallback = this.cite(
      await this.extractive.generate({ task: 'answer', messages: [], question, passages }),
      passages,
      question,
    );
    return fallback.citations.length > 0
      ? { ...fallback, model: this.extractive.model, grounded: true }
      : { answer: ABSTENTION, citations: [], model: this.extractive.model, grounded: false };
  }

  /** Keeps the `[n]` markers naming real passages, renumbered by first use, and builds their citations. */
  private cite(
    text: string,
    passages: ContextPassage[],
    question: string,
  ): { answer: string; citations: Citation[] } {
    const byN = new Map(passages.map((p) => [p.n, p]));
    const renumber = new Map<number, number>();
    const quotes = new Map<number, string>();
    let sentenceStart = 0;
    const answer = text
      .replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, (_marker, list: string, offset: number) => {
        const kept = list
          .split(',')
          .map((n) => Number(n.trim()))
          .filter((n) => byN.has(n));
        const sentence = text
          .slice(sentenceStart, offset)
          .replace(/\[[\d,\s]+\]/g, '')
          .trim();
        sentenceStart = offset + _marker.length;
        for (const n of kept) {
          if (!renumber.has(n)) renumber.set(n, renumber.size + 1);
          if (!quotes.has(n) && sentence && byN.get(n)!.text.replace(/\s+/g, ' ').includes(sentence))
            quotes.set(n, sentence);
        }
        return kept.length > 0 ? `[${[...new Set(kept.map((n) => renumber.get(n)))].join(', ')}]` : '';
      })
      .replace(/\s+([.,;])/g, '$1')
      .trim();
    const citations = [...renumber.entries()].map(([n, m]) => {
      const passage = byN.get(n)!;
      const quote =
        quotes.get(n) ?? this.extractive.rank(question, [passage], 1)[0]?.text ?? passage.text.slice(0, 240);
      const hit = passage.hit;
      return {
        n: m,
        chunkId: hit.chunkId,
        source: hit.source,
        title: hit.title,
        startLine: hit.startLine,
        endLine: hit.endLine,
        quote,
      };
    });
    return { answer, citations };
  }
}
