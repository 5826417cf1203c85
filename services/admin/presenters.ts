import type { z } from 'zod';
import type { AuditEvent } from '../../models/AuditEvent';
import type { AuditSearchResult } from './audit/auditSearch';
import type { InsightsSummary } from './insightsSummary';
import type { OperationsAnswer } from './operationsQuery';
import type { PatternReport } from './patternDetection';
import type {
  AuditEventBody,
  AuditSearchResponseSchema,
  InsightsSummarySchema,
  OperationsQueryResponseSchema,
  PatternResponseSchema,
  UserActivitySchema,
} from './schemas';
import type { UserActivity } from './userActivity';

/** An audit event as JSON (dates as ISO strings). */
export function presentAuditEvent(event: AuditEvent): AuditEventBody {
  return {
    at: new Date(event.at).toISOString(),
    actor: event.actor,
    kind: event.kind,
    target: event.target ?? '',
    outcome: event.outcome,
    ip: event.ip ?? null,
    request_id: event.request_id ?? null,
    details: event.details ?? {},
  };
}

/** The body of POST /admin/brain/search/audit. */
export function presentAuditSearch(result: AuditSearchResult): z.infer<typeof AuditSearchResponseSchema> {
  return {
    hits: result.hits.map((hit) => ({ score: hit.score, event: presentAuditEvent(hit.event) })),
    interpreted: result.interpreted,
    took_ms: result.took_ms,
  };
}

/** The body of POST /admin/brain/detect/patterns. */
export function presentPatterns(report: PatternReport): z.infer<typeof PatternResponseSchema> {
  return {
    window: { from: report.window.from.toISOString(), to: report.window.to.toISOString() },
    events_scanned: report.events_scanned,
    truncated: report.truncated,
    took_ms: report.took_ms,
    anomalies: report.anomalies,
  };
}

/** The body of POST /admin/brain/query/operations. */
export function presentOperationsAnswer(
  question: string,
  answer: OperationsAnswer,
): z.infer<typeof OperationsQueryResponseSchema> {
  const { metric, aggregation, window, group } = answer.interpreted;
  return {
    question,
    interpreted: {
      metric: metric.name,
      aggregation,
      window: { label: window.label, from: window.from.toISOString(), to: window.to.toISOString() },
      group_by: group?.field ?? null,
      query: answer.query,
    },
    answer: { value: answer.value, rows: answer.rows },
    text: answer.text,
  };
}

/** The body of GET /admin/brain/insights/summary. */
export function presentInsights(summary: InsightsSummary): z.infer<typeof InsightsSummarySchema> {
  return {
    generated_at: summary.generated_at.toISOString(),
    health: summary.health,
    insights: summary.insights,
  };
}

/** The body of GET /admin/brain/users/{id}/activity. */
export function presentUserActivity(activity: UserActivity): z.infer<typeof UserActivitySchema> {
  const { user, character } = activity;
  return {
    user: {
      id: user._id.toHexString(),
      roles: user.roles,
      tier: user.tier,
      created_at: new Date(user.createdAt).toISOString(),
    },
    character: character
      ? {
          name: character.name,
          level: character.level,
          room: character.roomRef,
          quests_completed: Object.values(character.quests ?? {}).filter((q) => q.status === 'completed')
            .length,
        }
      : null,
    counts: activity.counts,
    timeline: activity.timeline,
  };
}
