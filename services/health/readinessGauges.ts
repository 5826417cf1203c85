import { readinessState, storeUp } from '../../platform/metrics';
import {
  readinessOf,
  runChecks,
  type CheckResult,
  type ReadinessCheck,
  type ReadinessStatus,
} from '../../platform/stores/readiness';

const READINESS_VALUE: Record<ReadinessStatus, number> = { ready: 1, degraded: 0.5, not_ready: 0 };

/**
 * Runs the stores' checks, classifies them (ready, degraded, not ready) and records the outcome in
 * `platform_store_up{store}` and `platform_readiness`, which the readiness alerts read.
 */
export async function checkReadiness(
  checks: ReadinessCheck[],
  timeoutMs: number,
): Promise<{ status: ReadinessStatus; checks: CheckResult[] }> {
  const results = await runChecks(checks, timeoutMs);
  for (const result of results) storeUp.set({ store: result.name }, result.status === 'up' ? 1 : 0);
  const status = readinessOf(results);
  readinessState.set(READINESS_VALUE[status]);
  return { status, checks: results };
}
