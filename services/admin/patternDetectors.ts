import type { AnomalyBody } from './schemas';

/** The fields of an audit event the detectors read. */
export interface ScannedEvent {
  at: Date;
  actor: string;
  kind: string;
  target: string;
  outcome: string;
  ip: string | null;
  details: { amount?: unknown; seller?: unknown; item?: unknown; currency?: unknown };
}

/** Thresholds of the detectors (defaults tuned on bench/adminPatterns synthetic days; see the README). */
export const DETECTOR_THRESHOLDS = {
  /** Fewest events in one bucket for a burst, and its z-score against the EWMA of earlier buckets. */
  burstMinCount: 10,
  burstZ: 4,
  ewmaAlpha: 0.3,
  /** Fewest events of a kind for an actor to stand out, and the robust z-score (median/MAD) over actors. */
  heavyMinCount: 20,
  heavyZ: 6,
  /** Consecutive failed sign-ins of one identity or address that make a run. */
  failedRun: 5,
  /** Fewest amounts of a kind to judge one large, and the z-score of its log10 against the others. */
  amountMinSamples: 10,
  amountZ: 3,
  /** A resale of the same item within this long after buying it is a fast flip. */
  flipMs: 3_600_000,
  /** New accounts: events in the window, and cosine similarity of their kind mix to established accounts'. */
  likeOldMinEvents: 20,
  likeOldSimilarity: 0.9,
};

type Anomaly = AnomalyBody;
const iso = (at: Date | number) => new Date(at).toISOString();
const severityOf = (score: number, medium: number, high: number) =>
  score >= high ? 'high' : score >= medium ? 'medium' : 'low';

/** Rate bursts per actor and kind: each bucket's count against the EWMA mean and variance of the earlier ones. */
export function rateBursts(events: ScannedEvent[], from: number, to: number): Anomaly[] {
  const t = DETECTOR_THRESHOLDS;
  const bucketMs = Math.max(60_000, Math.ceil((to - from) / 48));
  const buckets = Math.max(1, Math.ceil((to - from) / bucketMs));
  const series = new Map<string, number[]>();
  for (const event of events) {
    const key = `${event.actor}\u0000${event.kind}`;
    let counts = series.get(key);
    if (!counts) series.set(key, (counts = new Array<number>(buckets).fill(0)));
    counts[Math.min(buckets - 1, Math.floor((event.at.getTime() - from) / bucketMs))] += 1;
  }
  const found: Anomaly[] = [];
  for (const [key, counts] of series) {
    let mean = 0;
    let variance = 0;
    let best: { index: number; z: number; baseline: number } | undefined;
    counts.forEach((count, index) => {
      const z = (count - mean) / Math.sqrt(variance + 1);
      if (count >= t.burstMinCount && z >= t.burstZ && (!best || z > best.z))
        best = { index, z, baseline: mean };
      const delta = count - mean;
      mean += t.ewmaAlpha * delta;
      variance = (1 - t.ewmaAlpha) * (variance + t.ewmaAlpha * delta * delta);
    });
    if (!best) continue;
    const [actor, kind] = key.split('\u0000');
    const start = from + best.index * bucketMs;
    found.push({
      type: 'rate_burst',
      severity: severityOf(best.z, 6, 8),
      score: round(best.z),
      actor,
      kind,
      target: null,
      count: counts[best.index],
      first_at: iso(start),
      last_at: iso(Math.min(to, start + bucketMs)),
      explanation: `${actor} did ${kind} ${counts[best.index]} times in ${bucketMs / 60_000} minutes, against a running average of ${round(best.baseline)} per ${bucketMs / 60_000} minutes (z ${round(best.z)})`,
      evidence: { bucket_minutes: bucketMs / 60_000, baseline: round(best.baseline) },
    });
  }
  return found;
}

/** Actors far above their peers for one kind (robust z-score with median and MAD over the actors of that kind). */
export function heavyActors(events: ScannedEvent[]): Anomaly[] {
  const t = DETECTOR_THRESHOLDS;
  const perKind = new Map<string, Map<string, { n: number; first: Date; last: Date }>>();
  for (const event of events) {
    let actors = perKind.get(event.kind);
    if (!actors) perKind.set(event.kind, (actors = new Map()));
    const entry = actors.get(event.actor);
    if (entry) {
      entry.n += 1;
      entry.last = event.at;
    } else actors.set(event.actor, { n: 1, first: event.at, last: event.at });
  }
  const found: Anomaly[] = [];
  for (const [kind, actors] of perKind) {
    if (actors.size < 5) continue;
    const totals = [...actors.values()].map((entry) => entry.n);
    const median = quantile(totals, 0.5);
    const mad = quantile(
      totals.map((n) => Math.abs(n - median)),
      0.5,
    );
    for (const [actor, entry] of actors) {
      const z = mad > 0 ? (0.6745 * (entry.n - median)) / mad : entry.n / Math.max(1, median);
      if (entry.n < t.heavyMinCount || z < t.heavyZ) continue;
      found.push({
        type: 'heavy_actor',
        severity: severityOf(z, 10, 20),
        score: round(z),
        actor,
        kind,
        target: null,
        count: entry.n,
        first_at: iso(entry.first),
        last_at: iso(entry.last),
        explanation: `${actor} did ${kind} ${entry.n} times; the median actor did it ${median} times (robust z ${round(z)} over ${actors.size} actors)`,
        evidence: { median, mad, actors: actors.size },
      });
    }
  }
  return found;
}

/**
 * Runs of failed sign-ins: consecutive failures of one claimed identity, or from one address, with no success in
 * between. A run that ends in a success is high severity (a guessed credential?); an address failing for several
 * identities is credential stuffing.
 */
export function failedSignInRuns(events: ScannedEvent[]): Anomaly[] {
  const t = DETECTOR_THRESHOLDS;
  const found: Anomaly[] = [];
  const runs = new Map<string, { n: number; first: Date; last: Date; targets: Set<string> }>();
  const close = (key: string, succeeded: boolean) => {
    const run = runs.get(key);
    runs.delete(key);
    if (!run || run.n < t.failedRun) return;
    const [side, value] = [key.slice(0, key.indexOf('=')), key.slice(key.indexOf('=') + 1)];
    const stuffing = side === 'ip' && run.targets.size >= 3;
    found.push({
      type: 'failed_sign_in_run',
      severity: succeeded || stuffing ? 'high' : run.n >= 3 * t.failedRun ? 'medium' : 'low',
      score: run.n,
      actor: null,
      kind: 'auth.sign_in_failed',
      target: side === 'ip' ? null : value,
      count: run.n,
      first_at: iso(run.first),
      last_at: iso(run.last),
      explanation:
        side === 'ip'
          ? `${run.n} failed sign-ins in a row from ${value} for ${run.targets.size} identities${stuffing ? ' (credential stuffing?)' : ''}${succeeded ? ', then a success' : ''}`
          : `${run.n} failed sign-ins in a row for ${value}${succeeded ? ', then a success (guessed credential?)' : ''}`,
      evidence: {
        ip: side === 'ip' ? value : null,
        identities: run.targets.size,
        ended_in_success: succeeded,
      },
    });
  };
  for (const event of events) {
    if (event.kind !== 'auth.sign_in' && event.kind !== 'auth.sign_in_failed') continue;
    const keys = [event.target && `id=${event.target}`, event.ip && `ip=${event.ip}`].filter(
      Boolean,
    ) as string[];
    for (const key of keys) {
      if (event.kind === 'auth.sign_in') {
        close(key, true);
        continue;
      }
      const run = runs.get(key) ?? { n: 0, first: event.at, last: event.at, targets: new Set<string>() };
      run.n += 1;
      run.last = event.at;
      if (event.target) run.targets.add(event.target);
      runs.set(key, run);
    }
  }
  for (const key of [...runs.keys()]) close(key, false);
  return found;
}

/** Every signature reuse alert of the signer, grouped by address. */
export function signatureReuse(events: ScannedEvent[]): Anomaly[] {
  const byTarget = new Map<string, ScannedEvent[]>();
  for (const event of events) {
    if (event.kind !== 'signer.reuse_alert') continue;
    const list = byTarget.get(event.target);
    if (list) list.push(event);
    else byTarget.set(event.target, [event]);
  }
  return [...byTarget].map(([target, alerts]) => ({
    type: 'signature_reuse' as const,
    severity: 'high' as const,
    score: alerts.length,
    actor: null,
    kind: 'signer.reuse_alert',
    target,
    count: alerts.length,
    first_at: iso(alerts[0].at),
    last_at: iso(alerts[alerts.length - 1].at),
    explanation: `${alerts.length} attempt(s) to reuse a consumed signature or nonce for ${target}`,
    evidence: {},
  }));
}

/** A quantile of numbers (linear interpolation). */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** Rounds to 2 decimals. */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}
