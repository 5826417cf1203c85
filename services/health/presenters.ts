import type { CheckResult } from '../../platform/stores/readiness';
import type { Liveness, Readiness } from './schemas';

/** `GET /healthz`: the process is up, and for how long (whole seconds). */
export function presentLiveness(uptimeSeconds: number): Liveness {
  return { status: 'ok', uptimeSeconds: Math.round(uptimeSeconds) };
}

/** `GET /readyz` when every store answered: each check with its latency. */
export function presentReadiness(checks: CheckResult[]): Readiness {
  return { status: 'ready', checks };
}
