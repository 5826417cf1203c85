import Graph from 'graphology';
import pagerank from 'graphology-metrics/centrality/pagerank';
import { expandQueryTerms } from '../text/synonyms';
import { looksLikeCode, splitSentences } from '../text/sentences';
import { analyze, queryTerms } from '../text/terms';
import { chooseAnswerSentences } from './answerSentences';
import type { GenerationRequest, Passage, TextGenerator } from './textGenerator';

/** Extractive settings. Defaults: 3 sentences an answer (one a passage), relevance 0.75 / centrality 0.25, idf 1. */
export interface ExtractiveGeneratorOptions {
  maxSentences: number;
  relevanceWeight: number;
  idf: (term: string) => number;
}

/** A sentence of a passage with its scores. */
export interface ScoredSentence {
  n: number;
  text: string;
  relevance: number;
  score: number;
}

/**
 * The offline generator, always last in the generation chain (model `extractive-textrank-v1`): no network,
 * no weights. It splits the passages into sentences (table rows and list items count as sentences), scores
 * each by relevance to the question (the idf-weighted share of the question's terms it holds, WordNet
 * synonyms at half weight) and by TextRank centrality (PageRank from graphology-metrics over sentences
 * linked by shared terms), and answers with the best sentences, each followed by its passage's `[n]`.
 * Summaries are the most central sentences; HYDE hypotheses are left to RM3 (empty text).
 */
export class ExtractiveGenerator implements TextGenerator {
  readonly id = 'extractive';
  readonly model = 'extractive-textrank-v1';
  private readonly options: ExtractiveGeneratorOptions;

  constructor(options: Partial<ExtractiveGeneratorOptions> = {}) {
    this.options = { maxSentences: 3, relevanceWeight: 0.75, idf: () => 1, ...options };
  }

  async generate(request: GenerationRequest): Promise<string> {
    if (request.task === 'hypothesis') return '';
    const passages = request.passages ?? [];
    if (request.task === 'summary') {
      return this.rank(request.question ?? '', passages, 0)
        .slice(0, this.options.maxSentences)
        .map((s) => s.text)
        .join(' ');
    }
    return this.choose(request.question ?? '', passages)
      .map((s) => `${s.text} [${s.n}]`)
      .join(' ');
  }

  /** The sentences an answer to `question` states, best first, each from its own passage (`answerSentences.ts`). */
  choose(question: string, passages: readonly Passage[]): ScoredSentence[] {
    return chooseAnswerSentences(question, this.rank(question, passages, this.options.relevanceWeight), {
      maxSentences: this.options.maxSentences,
    });
  }

  /** Every sentence of the passages, best first, by relevance (weight `relevanceWeight`) and centrality. */
  rank(question: string, passages: readonly Passage[], relevanceWeight: number): ScoredSentence[] {
    const sentences = passages.flatMap((p) =>
      splitSentences(p.text).map((text) => ({ n: p.n, text, terms: new Set(analyze(text)) })),
    );
    if (sentences.length === 0) return [];
    const centrality = textRank(sentences.map((s) => s.terms));
    const maxCentrality = Math.max(...centrality) || 1;
    const terms = [...queryTerms(question)];
    const synonyms = expandQueryTerms(question);
    const idf = new Map(terms.map((t) => [t, this.options.idf(t)]));
    const mass = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
    return sentences
      .map((s, i) => {
        let covered = 0;
        for (const term of terms) {
          if (s.terms.has(term)) covered += idf.get(term)!;
          else if ((synonyms.get(term) ?? []).some((x) => s.terms.has(x))) covered += idf.get(term)! / 2;
        }
        // Prose states answers; a code line that shares the words is weaker evidence.
        const relevance = (covered / mass) * (looksLikeCode(s.text) ? 0.5 : 1);
        const score = relevanceWeight * relevance + (1 - relevanceWeight) * (centrality[i] / maxCentrality);
        return { n: s.n, text: s.text, relevance, score };
      })
      .sort((a, b) => b.score - a.score);
  }
}

/** PageRank over sentences, edges weighted by the overlap of their term sets (TextRank, Mihalcea and Tarau 2004). */
function textRank(termSets: ReadonlyArray<ReadonlySet<string>>): number[] {
  const graph = new Graph({ type: 'undirected' });
  termSets.forEach((_, i) => graph.addNode(String(i)));
  for (let i = 0; i < termSets.length; i++) {
    for (let j = i + 1; j < termSets.length; j++) {
      let shared = 0;
      for (const term of termSets[i]) if (termSets[j].has(term)) shared++;
      if (shared === 0) continue;
      const weight = shared / (Math.log(termSets[i].size + 1) + Math.log(termSets[j].size + 1));
      graph.addEdge(String(i), String(j), { weight });
    }
  }
  if (graph.size === 0) return termSets.map(() => 1);
  const ranks = pagerank(graph, { getEdgeWeight: 'weight' });
  return termSets.map((_, i) => ranks[String(i)] ?? 0);
}
