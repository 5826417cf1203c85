import type { Logger } from 'pino';
import type { IndexName } from '../../models/corpusRecords';
import type { EmbeddingChain } from '../embeddings/embeddingChain';
import type { FullTextIndex } from '../fulltext/fullTextIndex';
import type { GraphIndex } from '../graph/graphIndex';
import { createGraphStrategy } from '../graph/graphStrategy';
import { createHydeStrategy, type HypothesisWriter } from '../hyde/hydeStrategy';
import type { RaptorIndex } from '../raptor/raptorIndex';
import { createRaptorStrategy } from '../raptor/raptorStrategy';
import { createOfflineReranker, type Reranker } from '../rerank/offlineReranker';
import type { Hit, SearchStrategy, StrategyName } from '../retrieval/hit';
import { followCitations, type SectionCitations } from '../retrieval/sectionCitations';
import {
  createFulltextStrategy,
  createHybridStrategy,
  createSemanticStrategy,
} from '../retrieval/strategies';
import type { VectorIndex } from '../retrieval/vectorIndex';
import { AdaptiveRouter, type AdaptiveRouterOptions, type AnchorOption } from './adaptiveRouter';
import { RouterCalibrator, type CalibrationOptions } from './routerCalibration';

/**
 * The anchor of auto routes by default: hybrid (BM25 + the offline vectors, fused), the strategy that depends least
 * on this repository's vocabulary, fused at weight 2 beside the lists of every class but SIMPLE, without a fallback
 * (`minShared` 0: falling back to it on disagreement measured worse on the tuning half). Chosen on the tuning half of
 * the multi-corpus eval as the variant with the smallest shortfall against the best single strategy of each corpus
 * (ai/README.md, "The router on the multi-corpus eval").
 */
export const DEFAULT_ANCHOR: AnchorOption = {
  strategy: 'hybrid',
  weight: 2,
  agreeK: 10,
  minShared: 0,
  classes: ['FACTUAL', 'EXPLORATORY', 'COMPLEX'],
};

/** What the router's calibration sets: the fusion weights, the anchor, both, or nothing. */
export const CALIBRATION_MODES = ['off', 'weights', 'anchor', 'both'] as const;
export type CalibrationMode = (typeof CALIBRATION_MODES)[number];

/** Strategies that may anchor an auto route when the anchor is chosen on the index. */
export const ANCHOR_CANDIDATES: StrategyName[] = ['hybrid', 'hyde', 'fulltext', 'semantic'];

/** Strategies the calibrator measures on the index's pseudo-queries. */
const CALIBRATED: StrategyName[] = ['fulltext', 'semantic', 'graph', 'hyde', 'hybrid'];

/** What the retrieval suite is built from; `graph` and `raptor` join when their indexes exist. */
export interface RetrievalSuiteDeps {
  fullText: FullTextIndex;
  embeddings: Pick<EmbeddingChain, 'embedQuery'>;
  vectors: VectorIndex;
  logger?: Logger;
  /** Writes HYDE's hypothetical answer (the LLM chain); offline RM3 + WordNet without it. */
  hypothesisWriter?: HypothesisWriter;
  /**
   * Citation authority of documents (`DocumentAuthority.of`), a prior of the offline reranker; the caller keeps
   * it in step with the corpus (subscribed to the fulltext index's changes before its start-up rebuild).
   */
  authority?: (documentId: string) => number;
  /**
   * Where the corpus's numbered sections are (`SectionCitations`, kept in step with the corpus by the caller like
   * `authority`); with it an auto route's candidates are joined by the sections they cite before reranking.
   */
  citations?: SectionCitations;
  /** Replaces the offline reranker (an LLM or cross-encoder endpoint). */
  reranker?: Reranker;
  /**
   * Answer types in the ranking [true]: the offline reranker's bonus for a candidate holding a value of the kind the
   * question asks for, and auto routes searching the question without the word naming that kind.
   */
  answerTypes?: boolean;
  /** The knowledge graph; with it the GRAPH strategy joins. */
  graph?: GraphIndex;
  /** The RAPTOR trees; with them the RAPTOR strategy (collapsed-tree search) joins. */
  raptor?: RaptorIndex;
  router?: Partial<AdaptiveRouterOptions>;
  /**
   * Calibrate the router on pseudo-queries made from the corpus, after each change once the corpus is quiet
   * (ai/router/routerCalibration): `weights` (or true) scales each strategy's fusion weight by its MRR on them,
   * `anchor` makes the anchor the candidate strongest on them (`ANCHOR_CANDIDATES`), `both` does both; default off.
   */
  calibrate?: boolean | CalibrationMode;
  /** How the calibration's pseudo-queries are made and how many (default: `sentence`, 40). */
  calibration?: Partial<CalibrationOptions>;
}

/** Every strategy by name, the reranker and the router over them. */
export interface RetrievalSuite {
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  reranker: Reranker;
  router: AdaptiveRouter;
  /** The index's calibration, when `calibrate` was asked for. */
  calibrator?: RouterCalibrator;
}

/**
 * Builds the strategies (fulltext, semantic, hybrid, hyde, plus graph and raptor when given), the offline
 * reranker (idf from the BM25 index, citation authority when given) and the adaptive router over them (following the
 * candidates' section citations when `citations` is given): one composition shared by the
 * brain's core and the quality benches, so both measure the same thing.
 */
export function buildRetrievalSuite(deps: RetrievalSuiteDeps): RetrievalSuite {
  const { fullText, logger } = deps;
  const fulltext = createFulltextStrategy(fullText);
  const semantic = createSemanticStrategy({
    embeddings: deps.embeddings,
    vectors: deps.vectors,
    chunks: fullText,
    logger,
  });
  const strategies: Partial<Record<StrategyName, SearchStrategy>> = {
    fulltext,
    semantic,
    hybrid: createHybridStrategy(fulltext, semantic, { logger }),
    hyde: createHydeStrategy({ fullText, semantic, writer: deps.hypothesisWriter, logger }),
    ...(deps.graph
      ? {
          graph: createGraphStrategy({
            index: deps.graph,
            chunks: fullText,
            idf: (term) => fullText.idf(term),
          }),
        }
      : {}),
    ...(deps.raptor ? { raptor: createRaptorStrategy({ index: deps.raptor, chunks: fullText }) } : {}),
  };
  const reranker =
    deps.reranker ??
    createOfflineReranker(
      {
        idf: (term) => fullText.idf(term),
        authority: deps.authority,
        analyses: fullText.analyses,
      },
      deps.answerTypes === false ? { answerType: 0 } : {},
    );
  const { citations } = deps;
  const follow = citations
    ? (hits: readonly Hit[], indexes?: readonly IndexName[]) =>
        followCitations(hits, {
          citations,
          chunk: (id) => {
            const chunk = fullText.get(id);
            return chunk && (!indexes?.length || indexes.includes(chunk.index)) ? chunk : undefined;
          },
        })
    : undefined;
  const mode: CalibrationMode = deps.calibrate === true ? 'weights' : deps.calibrate || 'off';
  const calibrator =
    mode !== 'off'
      ? new RouterCalibrator({
          chunks: () => fullText.allChunks(),
          idf: (term) => fullText.idf(term),
          documentFrequency: (term) => fullText.documentFrequency(term),
          options: deps.calibration,
          strategies,
          names: CALIBRATED.filter((name) => strategies[name] !== undefined),
          onError: (error) => logger?.warn({ err: error }, 'router calibration failed'),
        })
      : undefined;
  if (calibrator) fullText.onDocumentChange(() => calibrator.changed());
  const router = new AdaptiveRouter(strategies, reranker, {
    anchor: DEFAULT_ANCHOR,
    ...(follow ? { followCitations: follow } : {}),
    ...(calibrator && mode !== 'anchor' ? { calibration: () => calibrator.weights() } : {}),
    ...(calibrator && mode !== 'weights'
      ? { anchorChoice: () => calibrator.strongest(ANCHOR_CANDIDATES) }
      : {}),
    ...(deps.answerTypes === false ? { typeWord: false } : {}),
    ...deps.router,
    ...(logger ? { logger } : {}),
  });
  return { strategies, reranker, router, ...(calibrator ? { calibrator } : {}) };
}
