/**
 * What the router labs (routerLab.ts, rankLab.ts) start from: an evaluation platform with one corpus ingested, and
 * the router the platform built, caught on its first search, so a lab can score variants over the same strategies and
 * reranker the routes use.
 */
import { AdaptiveRouter } from '../../ai/router/adaptiveRouter';
import type { RerankFeatures, Reranker } from '../../ai/rerank/offlineReranker';
import type { SearchStrategy, StrategyName } from '../../ai/retrieval/hit';
import type { EvalCorpus } from './corpusSet';
import { startEvalPlatform, type CorpusIngest, type EvalPlatform } from './evalPlatform';

/** The platform's router, as a lab reads it. */
export interface CaughtRouter {
  strategies: Partial<Record<StrategyName, SearchStrategy>>;
  reranker: Reranker & { features: RerankFeatures };
  options: ConstructorParameters<typeof AdaptiveRouter>[2];
}

let caught: AdaptiveRouter | undefined;
const catchRouter = (router: AdaptiveRouter) => (caught = router);
const search = AdaptiveRouter.prototype.search;
AdaptiveRouter.prototype.search = function (this: AdaptiveRouter, ...args) {
  catchRouter(this);
  return search.apply(this, args);
};

/** Starts a platform, ingests the corpus (waiting for its enrichment) and searches once to catch the router. */
export async function ingestedPlatform(
  corpus: EvalCorpus,
): Promise<{ platform: EvalPlatform; ingest: CorpusIngest; router: CaughtRouter }> {
  const platform = await startEvalPlatform();
  try {
    const ingest = await platform.ingest(corpus);
    await platform.post('/brain/search/v2', { query: 'warm up', limit: 1 });
    return { platform, ingest, router: caught as unknown as CaughtRouter };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}
