import type { CheckResult } from '../../platform/stores/readiness';
import type { Liveness, Readiness } from './schemas';

/** `GET /healthz`: the process is up, and for how long (whole seconds). */
export function presentLiveness(uptimeSeconds: number): Liveness {
  return { status: 'ok', uptimeSeconds: Math.round(uptimeSeconds) };
}

/**
 * `GET /readyz` when the process can serve: `ready` (every store answered) or `degraded` (only stores with an
 * in-process fallback failed; `degraded` names them), each check with its latency.
 */
export function presentReadiness(status: 'ready' | 'degraded', checks: CheckResult[]): Readiness {
  if (status === 'ready') return { status, checks };
  const degraded = checks.filter((check) => check.status === 'down').map((check) => check.name);
  return { status, degraded, checks };
}
