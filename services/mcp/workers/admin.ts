import { z } from 'zod';
import type { AdminService } from '../../admin';
import {
  AdminStatusSchema,
  AuditSearchRequestSchema,
  AuditSearchResponseSchema,
  InsightsSummarySchema,
  OperationsQueryRequestSchema,
  OperationsQueryResponseSchema,
  PatternRequestSchema,
  PatternResponseSchema,
  UserActivityQuerySchema,
  UserActivitySchema,
} from '../../admin';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { hexId, pageLimit } from './caller';

const date = (value: string | undefined) => (value ? new Date(value) : undefined);

/**
 * The admin worker: the admin brain (SPEC 4.9) through the admin area's service interface: the brain-backed areas'
 * status, the health score with its factors and insights, semantic audit search, anomaly detection, operations
 * questions from a fixed read-only catalogue, and one user's activity. Admins only, as the /admin/brain routes.
 */
export function adminWorker(admin: AdminService): Worker {
  return {
    name: 'admin',
    description:
      'For admins: platform status, health score, audit search, anomalies, operations questions, user activity.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'admin_status',
        title: 'Platform status',
        description:
          'Each brain-backed area (knowledge, audit, quests, influencer, …): up, degraded or down, index sizes, ' +
          'last sync and consolidation; the embedding providers’ breakers; the overall status.',
        input: z.strictObject({}),
        output: AdminStatusSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: () => admin.status(),
        summarise: (status) =>
          `${status.status}: ` + status.areas.map((area) => `${area.name} ${area.state}`).join(', ') + '.',
      }),
      defineTool({
        name: 'admin_health',
        title: 'Health score and insights',
        description:
          'A health score 0-100 with the factors that lowered it (error rates, failed sign-ins, providers, …) ' +
          'and generated insights by severity. Start here when asked how the platform is doing.',
        input: z.strictObject({}),
        output: InsightsSummarySchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: () => admin.insights(),
        summarise: ({ health, insights }) =>
          `Health ${health.score}/100` +
          (insights.length
            ? `:\n${insights.map((insight) => `- ${insight.severity}: ${insight.text}`).join('\n')}`
            : '.'),
      }),
      defineTool({
        name: 'admin_search_audit',
        title: 'Search the audit log',
        description:
          'Audit events matching words by meaning and identifiers exactly (user ids, addresses, request ids), ' +
          'filtered by time range, actor (`user:<id>`, `service`) and kinds (`auth.sign_in`, `mcp.tool_call`, …), ' +
          'newest first. AUDIT_RANGE_INVALID when from is after to.',
        input: AuditSearchRequestSchema,
        output: AuditSearchResponseSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: (input) => admin.searchAudit({ ...input, from: date(input.from), to: date(input.to) }),
        summarise: ({ hits }) =>
          hits.length === 0
            ? 'No audit events match.'
            : `${hits.length} events:\n` +
              hits
                .slice(0, 5)
                .map(
                  ({ event }) =>
                    `- ${event.at} ${event.actor} ${event.kind} ${event.target}: ${event.outcome}`,
                )
                .join('\n'),
      }),
      defineTool({
        name: 'admin_detect_patterns',
        title: 'Detect anomalies',
        description:
          'Anomalies in a window of the audit log (rate bursts, heavy actors, failed sign-in runs, signature ' +
          'reuse, large amounts, fast flips, new accounts like old ones), most severe first, each explained.',
        input: PatternRequestSchema,
        output: PatternResponseSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: (input) => admin.detectPatterns(input),
        summarise: ({ anomalies, events_scanned: scanned }) =>
          anomalies.length === 0
            ? `No anomalies in ${scanned} events.`
            : `${anomalies.length} anomalies in ${scanned} events:\n` +
              anomalies
                .slice(0, 5)
                .map((anomaly) => `- ${anomaly.severity} ${anomaly.type}: ${anomaly.explanation}`)
                .join('\n'),
      }),
      defineTool({
        name: 'admin_query_operations',
        title: 'Ask an operations question',
        description:
          'Answers a plain-language operations question ("how many sign-ins failed in the last day?") from a ' +
          'fixed catalogue of read-only metrics, with the query that was run. Questions outside the catalogue or ' +
          'asking for a change are refused (OPERATIONS_QUERY_REFUSED).',
        input: OperationsQueryRequestSchema,
        output: OperationsQueryResponseSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: ({ question }) => admin.answer(question),
        summarise: (answer) => answer.text,
      }),
      defineTool({
        name: 'admin_user_activity',
        title: 'A user’s activity',
        description:
          'One user’s roles, tier, character and timeline across sign-in, world, economy, social, memory, ' +
          'signer and tool calls, newest first, with counts per area. USER_NOT_FOUND for an unknown id.',
        input: z.strictObject({
          user_id: hexId('user'),
          limit: pageLimit(500, 100),
          before: UserActivityQuerySchema.shape.before.meta({ description: 'Only events before this time' }),
        }),
        output: UserActivitySchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: ({ user_id: userId, limit, before }) =>
          admin.activity(userId, { limit, before: date(before) }),
        summarise: (activity) =>
          `User ${activity.user.id} (tier ${activity.user.tier}, ${activity.user.roles.join(', ')}): ` +
          `${activity.timeline.length} events` +
          (activity.timeline[0] ? `, newest ${activity.timeline[0].at} ${activity.timeline[0].kind}.` : '.'),
      }),
    ],
  };
}
