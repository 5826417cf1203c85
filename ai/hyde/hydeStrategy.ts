import pino, { type Logger } from 'pino';
import type { IndexName } from '../../models/corpusRecords';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import { reciprocalRankFusion, RRF_K } from '../retrieval/fusion';
import { DEFAULT_SEARCH_LIMIT, type Hit, type SearchStrategy } from '../retrieval/hit';
import { buildSnippet } from '../retrieval/snippet';
import { expandQueryTerms } from '../text/synonyms';
import { queryTerms } from '../text/terms';
import { relevanceModel } from './relevanceModel';

/** Writes a hypothetical answer to a question (an LLM); undefined when none is configured or it failed. */
export type HypothesisWriter = (question: string) => Promise<string | undefined>;

/** What HYDE needs: the BM25 index (feedback, weighted search, idf), the semantic strategy, an optional writer. */
export interface HydeStrategyDeps {
  fullText: Pick<FullTextIndex, 'search' | 'searchTerms' | 'idf'>;
  semantic?: SearchStrategy;
  writer?: HypothesisWriter;
  logger?: Logger;
}

/** HYDE settings. Defaults: 8 feedback chunks, 20 RM3 terms, λ 0.6, synonyms weigh 0.3 of their word. */
export interface HydeOptions {
  feedbackDocs: number;
  expansionTerms: number;
  originalWeight: number;
  synonymWeight: number;
}

const DEFAULTS: HydeOptions = {
  feedbackDocs: 8,
  expansionTerms: 20,
  originalWeight: 0.6,
  synonymWeight: 0.3,
};

/**
 * HYDE (Gao et al. 2022, "hypothetical document embeddings"): search with a document that looks like the
 * answer instead of the question. With a writer (an LLM), the document is its hypothetical answer. Offline
 * (no writer, or it gave nothing), the document is built by pseudo-relevance feedback: RM3 over the BM25
 * top `feedbackDocs` chunks, plus the WordNet synonyms of the query's words. The weighted terms run a BM25
 * search, the document's text runs the semantic strategy, and the two lists are fused by RRF (k = 60).
 * If the semantic side fails, the BM25 side answers and the failure is reported through `onPartialFailure`.
 */
export function createHydeStrategy(
  deps: HydeStrategyDeps,
  options: Partial<HydeOptions> = {},
): SearchStrategy {
  const settings = { ...DEFAULTS, ...options };
  const logger = deps.logger ?? pino({ level: 'silent' });
  return async (query, searchOptions = {}) => {
    const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
    const hypothesis = deps.writer ? await deps.writer(query) : undefined;
    const weights = hypothesis
      ? weightsOfText(`${query}\n${hypothesis}`)
      : offlineHypothesis(query, deps.fullText, settings, searchOptions.indexes);
    const document = [...weights.keys()].join(' ');
    const depth = Math.max(limit * 2, 20);
    const lists: Hit[][] = [
      deps.fullText.searchTerms(weights, { ...searchOptions, limit: depth, snippets: false }),
    ];
    if (deps.semantic) {
      try {
        lists.push(
          await deps.semantic(hypothesis ?? `${query} ${document}`, {
            ...searchOptions,
            limit: depth,
            snippets: false,
          }),
        );
      } catch (error) {
        logger.warn({ err: error }, 'hyde: semantic side failed');
        searchOptions.onPartialFailure?.(error);
      }
    }
    const fused = reciprocalRankFusion(lists, RRF_K, limit, 'hyde');
    if (searchOptions.snippets === false) return fused;
    const terms = queryTerms(query);
    return fused.map((hit) => ({ ...hit, snippet: buildSnippet(hit.text, terms) }));
  };
}

/** The offline hypothetical document as weighted index terms: RM3 feedback plus WordNet synonyms. */
export function offlineHypothesis(
  query: string,
  fullText: HydeStrategyDeps['fullText'],
  settings: HydeOptions = DEFAULTS,
  indexes?: readonly IndexName[],
): Map<string, number> {
  const terms = [...queryTerms(query)];
  const feedback = fullText.search(query, { indexes, limit: settings.feedbackDocs, snippets: false });
  const weights = relevanceModel(terms, feedback, (t) => fullText.idf(t), settings);
  const perWord = settings.originalWeight / (terms.length || 1);
  for (const synonyms of expandQueryTerms(query).values()) {
    for (const synonym of synonyms) {
      weights.set(
        synonym,
        (weights.get(synonym) ?? 0) + (settings.synonymWeight * perWord) / Math.max(1, synonyms.length / 2),
      );
    }
  }
  return weights;
}

function weightsOfText(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of queryTerms(text)) weights.set(term, 1);
  return weights;
}
