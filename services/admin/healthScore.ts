import { httpRequestDuration } from '../../platform/metrics';
import type { AnomalyBody } from './schemas';
import type { ProviderState } from './areaStatus';

/** One factor of the health score: its measured value, the points it takes off and why. */
export interface HealthFactor {
  name: string;
  value: number;
  penalty: number;
  max_penalty: number;
  detail: string;
}

/** What the score is computed from. */
export interface HealthInputs {
  anomalies: AnomalyBody[];
  http: HttpFigures;
  providers: ProviderState[];
  areas: Array<{ name: string; state: string }>;
  /** Background jobs overdue by more than 5 minutes. */
  overdueJobs: number;
}

/** Requests, server faults and the p95 latency this process has served since it started. */
export interface HttpFigures {
  requests: number;
  faults: number;
  p95Seconds: number;
}

const clamp = (value: number, max: number) => Math.max(0, Math.min(max, Math.round(value)));

/**
 * The health score, 100 minus each factor's penalty: alerts (high anomalies 10 points, medium 3; at most 30), the
 * server-fault rate (5xx except 501/503; 5% takes the full 25), the p95 latency (from 200 ms to 1 s, up to 15),
 * circuit breakers (10 per open, 5 per half-open; 20), brain-backed areas (10 per down, 5 per degraded; 20) and the
 * job backlog (1 per overdue job; 10).
 */
export function healthScore(inputs: HealthInputs): { score: number; factors: HealthFactor[] } {
  const high = inputs.anomalies.filter((a) => a.severity === 'high').length;
  const medium = inputs.anomalies.filter((a) => a.severity === 'medium').length;
  const rate = inputs.http.requests ? inputs.http.faults / inputs.http.requests : 0;
  const open = inputs.providers.filter((p) => p.state === 'OPEN').length;
  const halfOpen = inputs.providers.filter((p) => p.state === 'HALF_OPEN').length;
  const down = inputs.areas.filter((a) => a.state === 'down');
  const degraded = inputs.areas.filter((a) => a.state === 'degraded');
  const factors: HealthFactor[] = [
    {
      name: 'alerts',
      value: high + medium,
      penalty: clamp(10 * high + 3 * medium, 30),
      max_penalty: 30,
      detail: `${high} high and ${medium} medium anomalies in the last 24 hours`,
    },
    {
      name: 'error_rate',
      value: Math.round(rate * 10_000) / 10_000,
      penalty: clamp(rate * 500, 25),
      max_penalty: 25,
      detail: `${inputs.http.faults} server faults in ${inputs.http.requests} requests since this process started`,
    },
    {
      name: 'latency_p95',
      value: Math.round(inputs.http.p95Seconds * 1000),
      penalty: clamp(((inputs.http.p95Seconds - 0.2) / 0.8) * 15, 15),
      max_penalty: 15,
      detail: `p95 request latency ${Math.round(inputs.http.p95Seconds * 1000)} ms`,
    },
    {
      name: 'breakers',
      value: open,
      penalty: clamp(10 * open + 5 * halfOpen, 20),
      max_penalty: 20,
      detail: `${open} embedding provider circuit(s) open, ${halfOpen} half-open of ${inputs.providers.length}`,
    },
    {
      name: 'areas',
      value: down.length + degraded.length,
      penalty: clamp(10 * down.length + 5 * degraded.length, 20),
      max_penalty: 20,
      detail:
        down.length + degraded.length === 0
          ? `all ${inputs.areas.length} brain-backed areas up`
          : `down: ${down.map((a) => a.name).join(', ') || 'none'}; degraded: ${degraded.map((a) => a.name).join(', ') || 'none'}`,
    },
    {
      name: 'backlog',
      value: inputs.overdueJobs,
      penalty: clamp(inputs.overdueJobs, 10),
      max_penalty: 10,
      detail: `${inputs.overdueJobs} background job(s) overdue by more than 5 minutes`,
    },
  ];
  return { score: clamp(100 - factors.reduce((sum, f) => sum + f.penalty, 0), 100), factors };
}

/** Reads the request figures from the `http_request_duration_seconds` histogram. */
export async function httpFigures(): Promise<HttpFigures> {
  const { values } = await httpRequestDuration.get();
  let requests = 0;
  let faults = 0;
  const buckets = new Map<number, number>();
  for (const sample of values) {
    const name = (sample as { metricName?: string }).metricName ?? '';
    const labels = sample.labels as Record<string, string | number | undefined>;
    const status = String(labels.status_code ?? '');
    if (name.endsWith('_count')) {
      requests += sample.value;
      if (status.startsWith('5') && status !== '501' && status !== '503') faults += sample.value;
    } else if (name.endsWith('_bucket')) {
      const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + sample.value);
    }
  }
  const wanted = requests * 0.95;
  const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
  const bound = sorted.find(([, count]) => count >= wanted)?.[0] ?? 0;
  const largest = sorted.filter(([le]) => le !== Infinity).pop()?.[0] ?? 0;
  return { requests, faults, p95Seconds: requests === 0 ? 0 : bound === Infinity ? largest : bound };
}
