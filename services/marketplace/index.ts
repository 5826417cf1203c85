import { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { BrainStatusSource } from '../../platform/areaStatus';
import type { AuthService } from '../auth';
import { embeddingProvidersFrom } from '../../ai/embeddings/embeddingProviders';
import type { EconomyService } from '../economy';
import type { WorldService } from '../mud';
import { ListingVectors } from './listingVectors';
import { type MarketCore, marketModels } from './marketCore';
import { MarketRecovery } from './marketRecovery';
import { marketplaceStatus } from './marketStatus';
import { registerMarketplaceRoutes } from './router';
import { worldMarket } from './worldMarket';
import { type MarketplaceService, marketplaceService } from './marketplaceService';

export type { MarketplaceService } from './marketplaceService';
import type { WorldMarket } from '../../rooms/rules/marketTrades';
// What other areas use (the MCP tools publish these routes' own schemas, so a tool and its route cannot drift).
export { SORTS } from './listingSearch';
export { ListingSchema, SaleSchema, SearchResultSchema } from './schemas';

/** The marketplace's parts, its core (tests, bench) and its recovery pass. */
export interface MarketplaceArea extends ProductParts {
  core: MarketCore;
  recovery: MarketRecovery;
  /** The marketplace for the world's broker NPCs (`trade`); the composition connects it to the world. */
  worldMarket: WorldMarket;
  /** The marketplace for other areas (the MCP gateway). */
  service: MarketplaceService;
  /** Its listings' search index for `GET /admin/brain/status` (active listings, those not indexed, the oldest). */
  status: BrainStatusSource;
}

/**
 * The marketplace (SPEC 4.6) on the economy: listings with inventory escrow (characters' items, in a room or not)
 * or creator content, purchases as a recoverable saga with the 95/5 split, and semantic search over listing vectors
 * embedded through the brain's embedding chain into Qdrant. Routes in api processes; the recovery job for workers.
 */
export async function createMarketplaceArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  economy: EconomyService,
  world: Pick<WorldService, 'world' | 'items'>,
): Promise<MarketplaceArea> {
  const { stores, config, clock } = context;
  if (!stores.mongo) throw new Error('The marketplace needs MongoDB');
  const logger = context.logger.child({ component: 'marketplace' });
  const chain = new EmbeddingChain({ providers: embeddingProvidersFrom(config), clock, logger });
  const [models, vectors] = await Promise.all([
    marketModels(stores.mongo),
    ListingVectors.open(stores.qdrant, chain, logger),
  ]);
  const core: MarketCore = {
    ...models,
    economy,
    items: world.items,
    world: world.world,
    vectors,
    clock,
    logger,
    feePercent: config.ECONOMY_CREATOR_FEE_PERCENT,
  };
  const recovery = new MarketRecovery(core, logger);
  return {
    core,
    recovery,
    status: marketplaceStatus(core),
    worldMarket: worldMarket(core),
    service: marketplaceService(core),
    services: hasRole(config, 'api') ? [(routes) => registerMarketplaceRoutes(routes, core, auth.guard)] : [],
    jobs: [(agenda) => recovery.registerJob(agenda)],
  };
}
