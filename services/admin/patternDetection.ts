import type { Model } from 'mongoose';
import type { AuditEventRecord } from '../../models/AuditEvent';
import type { UserRecord } from '../../models/User';
import type { Clock } from '../../platform/clock';
import { fastFlips, largeAmounts, newAccountsLikeOld } from './economyDetectors';
import {
  failedSignInRuns,
  heavyActors,
  rateBursts,
  signatureReuse,
  type ScannedEvent,
} from './patternDetectors';
import type { AnomalyBody } from './schemas';

/** Most events one detection run reads (newest kept); beyond it the answer says `truncated`. */
export const MAX_SCANNED_EVENTS = 300_000;
const SEVERITY_RANK = { high: 0, medium: 1, low: 2 } as const;

/** What a detection run reads: the audit events and the users (for account ages). */
export interface PatternSources {
  events: Model<AuditEventRecord>;
  users: Model<UserRecord>;
  clock: Clock;
}

/** The answer of one run. */
export interface PatternReport {
  window: { from: Date; to: Date };
  events_scanned: number;
  truncated: boolean;
  took_ms: number;
  anomalies: AnomalyBody[];
}

/** Milliseconds of a window such as `30m`, `6h`, `7d`. */
export function windowMs(window: string): number {
  const n = Number(window.slice(0, -1));
  const unit = window.slice(-1);
  return n * (unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000);
}

/**
 * Pattern and anomaly detection over the audit log of a window (default the last 24 hours, at most 7 days): rate
 * bursts per actor and kind (EWMA), actors far above their peers (robust z-score), failed sign-in runs, signature
 * reuse alerts, large amounts (log-scale z-score), fast marketplace flips and new accounts acting like established
 * ones. Anomalies come most severe first, each with a sentence explaining it and the figures behind it.
 */
export async function detectPatterns(
  sources: PatternSources,
  input: { window: string; kinds?: string[] },
): Promise<PatternReport> {
  const started = performance.now();
  const to = sources.clock.now();
  const from = to - Math.min(windowMs(input.window), 7 * 86_400_000);
  const filter: Record<string, unknown> = { at: { $gte: new Date(from), $lte: new Date(to) } };
  if (input.kinds) filter.kind = { $in: input.kinds };
  const rows = await sources.events
    .find(filter, {
      _id: 0,
      at: 1,
      actor: 1,
      kind: 1,
      target: 1,
      outcome: 1,
      ip: 1,
      'details.amount': 1,
      'details.seller': 1,
      'details.item': 1,
      'details.currency': 1,
    })
    .sort({ at: -1 })
    .limit(MAX_SCANNED_EVENTS + 1)
    .lean<ScannedEvent[]>();
  const truncated = rows.length > MAX_SCANNED_EVENTS;
  const events = rows.slice(0, MAX_SCANNED_EVENTS).reverse();
  const created = await accountAges(sources.users, new Date(from));
  const anomalies = [
    ...signatureReuse(events),
    ...failedSignInRuns(events),
    ...rateBursts(events, from, to),
    ...heavyActors(events),
    ...largeAmounts(events),
    ...fastFlips(events),
    ...newAccountsLikeOld(events, created, new Date(from)),
  ].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.score - a.score);
  return {
    window: { from: new Date(from), to: new Date(to) },
    events_scanned: events.length,
    truncated,
    took_ms: Math.round(performance.now() - started),
    anomalies: anomalies.slice(0, 200),
  };
}

/**
 * Users created since `since` (`user:<id>` → date): the new accounts. One read of the accounts created in the window
 * (not a lookup per actor), so its cost follows sign-ups, not activity.
 */
async function accountAges(users: Model<UserRecord>, since: Date): Promise<Map<string, Date>> {
  const found = await users
    .find({ createdAt: { $gte: since } }, { createdAt: 1 })
    .limit(50_000)
    .lean<Array<{ _id: { toHexString(): string }; createdAt: Date }>>();
  return new Map(found.map((user) => [`user:${user._id.toHexString()}`, user.createdAt]));
}
