import type { Sleep } from '../../ai/embeddings/retry';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import { openBrainCore, type BrainCore } from './brainCore';
import { registerBrainRoutes } from './router';

/** Test seams of the brain area. `sleep`: the embedding retry's backoff waits (default: real timers). */
export interface BrainAreaOptions {
  sleep?: Sleep;
}

/** The brain area's parts plus its core, for tests and tools that look inside. */
export interface BrainArea extends ProductParts {
  core: BrainCore;
}

/**
 * The knowledge service's retrieval area: opens the core on the platform's stores (rebuilding the BM25
 * index from MongoDB) and contributes the /brain routes; ingestion is guarded by `requireBrainAuth`.
 */
export async function createBrainArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: BrainAreaOptions = {},
): Promise<BrainArea> {
  const core = await openBrainCore({ ...context, sleep: options.sleep });
  return {
    core,
    services: [
      (routes) =>
        registerBrainRoutes(routes, {
          core,
          requireBrainAuth: auth.guard.requireBrainAuth,
          maxDocumentsPerIngest: context.config.BRAIN_INGEST_MAX_DOCUMENTS,
        }),
    ],
  };
}
