import type { Connection } from 'mongoose';
import type { Clock } from '../../platform/clock';
import { collectStatus, type BrainStatusSource, type ProviderState } from './areaStatus';
import { healthScore, httpFigures, type HealthFactor } from './healthScore';
import { detectPatterns, type PatternSources } from './patternDetection';

/** What the summary reads. */
export interface InsightSources extends PatternSources {
  connection: Connection;
  areas: BrainStatusSource[];
  providers: () => Promise<ProviderState[]>;
  clock: Clock;
}

/** One generated insight. */
export interface Insight {
  severity: 'info' | 'warning' | 'critical';
  text: string;
}

/** The summary: when, the health score with its factors, and the insights. */
export interface InsightsSummary {
  generated_at: Date;
  health: { score: number; factors: HealthFactor[] };
  insights: Insight[];
}

/**
 * Generated insights and a health score 0-100 (healthScore.ts): the last 24 hours' anomalies, this process's request
 * figures, provider breakers, brain-backed areas and the job backlog; then sentences composed from those figures
 * and from the audit log's day-over-day counts (templates over measured values, nothing invented).
 */
export async function summariseInsights(sources: InsightSources): Promise<InsightsSummary> {
  const now = sources.clock.now();
  const [patterns, http, status, overdueJobs, trend] = await Promise.all([
    detectPatterns(sources, { window: '24h' }),
    httpFigures(),
    collectStatus(sources.areas),
    sources.connection.collection('agendaJobs').countDocuments({
      nextRunAt: { $lt: new Date(now - 300_000) },
      lockedAt: null,
      disabled: { $ne: true },
    }),
    dayOverDay(sources, now),
  ]);
  const providers = await sources.providers();
  const health = healthScore({
    anomalies: patterns.anomalies,
    http,
    providers,
    areas: status.areas,
    overdueJobs,
  });
  const insights: Insight[] = [];
  for (const anomaly of patterns.anomalies.filter((a) => a.severity !== 'low').slice(0, 5))
    insights.push({
      severity: anomaly.severity === 'high' ? 'critical' : 'warning',
      text: anomaly.explanation,
    });
  for (const factor of health.factors.filter((f) => f.penalty > 0 && f.name !== 'alerts'))
    insights.push({
      severity: factor.penalty >= factor.max_penalty / 2 ? 'critical' : 'warning',
      text: factor.detail,
    });
  for (const [kind, label] of TRENDS) {
    const { today, yesterday } = trend.get(kind) ?? { today: 0, yesterday: 0 };
    if (today === 0 && yesterday === 0) continue;
    const change = yesterday ? Math.round(((today - yesterday) / yesterday) * 100) : null;
    insights.push({
      severity:
        kind === 'auth.sign_in_failed' && change !== null && change >= 100 && today >= 10
          ? 'warning'
          : 'info',
      text: `${today} ${label} in the last 24 hours${change === null ? ' (none the day before)' : `, ${change >= 0 ? 'up' : 'down'} ${Math.abs(change)}% on the day before (${yesterday})`}.`,
    });
  }
  if (insights.length === 0)
    insights.push({ severity: 'info', text: 'No activity or problems to report in the last 24 hours.' });
  return { generated_at: new Date(now), health, insights };
}

const TRENDS: Array<[string, string]> = [
  ['auth.sign_in', 'sign-ins'],
  ['auth.sign_in_failed', 'failed sign-ins'],
  ['marketplace.sale', 'marketplace sales'],
  ['economy.transfer', 'transfers'],
  ['signer.request', 'signature requests'],
  ['mcp.tool_call', 'tool calls'],
];

/** Counts per kind of the last 24 hours and of the 24 before. */
async function dayOverDay(sources: InsightSources, now: number) {
  const rows = await sources.events.aggregate<{ _id: { kind: string; today: boolean }; n: number }>([
    {
      $match: {
        at: { $gte: new Date(now - 2 * 86_400_000), $lte: new Date(now) },
        kind: { $in: TRENDS.map(([k]) => k) },
      },
    },
    {
      $group: {
        _id: { kind: '$kind', today: { $gte: ['$at', new Date(now - 86_400_000)] } },
        n: { $sum: 1 },
      },
    },
  ]);
  const trend = new Map<string, { today: number; yesterday: number }>();
  for (const row of rows) {
    const entry = trend.get(row._id.kind) ?? { today: 0, yesterday: 0 };
    if (row._id.today) entry.today += row.n;
    else entry.yesterday += row.n;
    trend.set(row._id.kind, entry);
  }
  return trend;
}
