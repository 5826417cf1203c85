import { z } from 'zod';
import type { ApiRoutes } from '../../platform/http/routes';
import { registry } from '../../platform/metrics';
import { failureCause, type ReadinessCheck } from '../../platform/stores/readiness';
import { checkReadiness } from './readinessGauges';
import { healthError } from './errors';
import { presentLiveness, presentReadiness } from './presenters';
import { LivenessSchema, ReadinessSchema, type Liveness, type Readiness } from './schemas';

/** What the probes read: the stores' checks, their timeout, and whether the process still accepts work. */
export interface HealthDependencies {
  checks: ReadinessCheck[];
  readinessTimeoutMs: number;
  /** False while the process shuts down, so load balancers stop sending traffic. */
  isAccepting: () => boolean;
}

/** Liveness, readiness and Prometheus metrics: mounted in every role. */
export function registerHealthRoutes(routes: ApiRoutes, deps: HealthDependencies): void {
  routes.add({
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process is up and serving HTTP',
    tags: ['health'],
    responses: { 200: { description: 'Alive', schema: LivenessSchema } },
    handler: (): { status: number; body: Liveness } => ({
      status: 200,
      body: presentLiveness(process.uptime()),
    }),
  });

  routes.add({
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: every configured store answers (degraded while only Redis does not)',
    tags: ['health'],
    responses: {
      200: {
        description:
          'Every store answered (ready), or only stores with an in-process fallback failed (degraded)',
        schema: ReadinessSchema,
      },
      503: { description: 'A store without a fallback did not answer, or the process is shutting down' },
    },
    handler: async (): Promise<{ status: number; body: Readiness }> => {
      if (!deps.isAccepting()) throw healthError('SHUTTING_DOWN', 'The process is shutting down');
      const { status, checks } = await checkReadiness(deps.checks, deps.readinessTimeoutMs);
      const failed = checks.filter((check) => check.status === 'down');
      if (status === 'not_ready') {
        // The stores' own errors go to the log (URLs redacted) as the cause, not into the body.
        throw healthError(
          'NOT_READY',
          `Not ready: ${failed.map((check) => `${check.name} (${check.error})`).join(', ')}`,
          {
            extensions: { checks },
            cause: new AggregateError(failed.map(failureCause), 'store checks failed'),
          },
        );
      }
      return { status: 200, body: presentReadiness(status, checks) };
    },
  });

  routes.add({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (text exposition format)',
    tags: ['health'],
    responses: {
      200: {
        description: 'Metrics in Prometheus text format',
        schema: z.string(),
        mediaType: 'text/plain',
      },
    },
    handler: async ({ res }) => {
      // Refreshes platform_store_up and platform_readiness, so the readiness alerts need no separate prober.
      await checkReadiness(deps.checks, deps.readinessTimeoutMs);
      res.type(registry.contentType).send(await registry.metrics());
      return { status: 200 };
    },
  });
}
