import client from 'prom-client';
import { registry } from '../../../platform/metrics';

/** Consolidation runs finished, by trigger (scheduled, catch_up, manual) and outcome (succeeded, failed). */
export const consolidationRuns = new client.Counter({
  name: 'brain_consolidation_runs_total',
  help: 'Memory consolidation runs, by trigger and outcome',
  labelNames: ['trigger', 'outcome'] as const,
  registers: [registry],
});

/** Duration of consolidation runs in seconds, by outcome. */
export const consolidationDuration = new client.Histogram({
  name: 'brain_consolidation_duration_seconds',
  help: 'Memory consolidation run duration in seconds, by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
  registers: [registry],
});

/** Unix time of the last successful consolidation (alert when it is older than a day and a bit). */
export const consolidationLastSuccess = new client.Gauge({
  name: 'brain_consolidation_last_success_timestamp_seconds',
  help: 'Unix time of the last successful memory consolidation',
  registers: [registry],
});
