import type { Sleep } from '../../ai/embeddings/retry';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import { openBrainCore } from './brainCore';
import { PROJECT_ROOT } from '../../platform/projectRoot';
import { registerBrainRoutes } from './router';
import { seedEmptyBrain } from './seed';

/** Test seams of the brain area. `sleep`: the embedding retry's backoff waits (default: real timers). */
export interface BrainAreaOptions {
  sleep?: Sleep;
}

/**
 * The knowledge service's retrieval area: in a process with the `api` role, opens the core on the
 * platform's stores (rebuilding the BM25 index from MongoDB) and contributes the /brain routes, ingestion
 * guarded by `requireBrainAuth`. Game- or worker-only processes serve no brain routes and skip it.
 */
export async function createBrainArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard'>,
  options: BrainAreaOptions = {},
): Promise<ProductParts> {
  if (!hasRole(context.config, 'api')) return {};
  const core = await openBrainCore({ ...context, sleep: options.sleep });
  // In the background, so start-up does not wait for it; stopping waits for it to finish.
  const seeding = context.config.BRAIN_SEED_ON_START
    ? seedEmptyBrain(core, PROJECT_ROOT, context.logger).catch((error: unknown) => {
        context.logger.error({ err: error }, 'brain seed failed');
      })
    : undefined;
  return {
    close: async () => {
      await seeding;
    },
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
