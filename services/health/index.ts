import { backupRunnerOf } from '../../platform/backup';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import { registerHealthRoutes } from './router';

/**
 * The health and operations service: liveness (`/healthz`), readiness over the opened stores (`/readyz`),
 * Prometheus metrics (`/metrics`) and the nightly backup job (BACKUP_CRON, run by a worker). Its routes are probes,
 * mounted in every role, so a game- or worker-only process answers them too.
 */
export function createHealthService(context: PlatformContext): ProductParts {
  const { config, stores, isAccepting } = context;
  return {
    probes: [
      (routes) =>
        registerHealthRoutes(routes, {
          checks: stores.checks,
          readinessTimeoutMs: config.READINESS_TIMEOUT_MS,
          isAccepting,
        }),
    ],
    jobs: [backupRunnerOf(context).registerJob(config.BACKUP_CRON)],
  };
}
