import type { ApiRoutes } from '../../platform/http/routes';
import type { AdminBrain } from './adminBrain';
import { auditRangeInvalid } from './errors';
import {
  presentAuditSearch,
  presentInsights,
  presentOperationsAnswer,
  presentPatterns,
  presentUserActivity,
} from './presenters';
import {
  AdminStatusSchema,
  AuditSearchRequestSchema,
  AuditSearchResponseSchema,
  InsightsSummarySchema,
  OperationsQueryRequestSchema,
  OperationsQueryResponseSchema,
  PatternRequestSchema,
  PatternResponseSchema,
  UserActivityParamsSchema,
  UserActivityQuerySchema,
  UserActivitySchema,
} from './schemas';

const date = (value: string | undefined) => (value ? new Date(value) : undefined);

/** SPEC 4.9: the admin brain's six routes, admins only (403 ROLE_REQUIRED for others). */
export function registerAdminRoutes(routes: ApiRoutes, brain: AdminBrain): void {
  const middleware = brain.guard.requireRole('admin');
  const common = { tags: ['admin'], security: 'admin' as const, middleware };

  routes.add({
    ...common,
    method: 'get',
    path: '/admin/brain/status',
    summary:
      'Each brain-backed area: up/degraded/down, index sizes, last sync and consolidation, provider breakers',
    responses: { 200: { description: 'Status', schema: AdminStatusSchema } },
    handler: async () => ({ status: 200, body: await brain.status() }),
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/admin/brain/search/audit',
    summary: 'Semantic search over the audit log, filtered by time range, actor and kinds',
    request: { body: AuditSearchRequestSchema },
    responses: { 200: { description: 'Matching events, newest first', schema: AuditSearchResponseSchema } },
    handler: async ({ body }) => {
      const [from, to] = [date(body.from), date(body.to)];
      if (from && to && from > to) throw auditRangeInvalid();
      const result = await brain.searchAudit({ ...body, from, to });
      return { status: 200, body: presentAuditSearch(result) };
    },
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/admin/brain/detect/patterns',
    summary: 'Anomalies in a window of the audit log, each with its explanation',
    request: { body: PatternRequestSchema },
    responses: { 200: { description: 'Anomalies, most severe first', schema: PatternResponseSchema } },
    handler: async ({ body }) => ({ status: 200, body: presentPatterns(await brain.detectPatterns(body)) }),
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/admin/brain/query/operations',
    summary: 'A natural-language operations question, answered from a fixed catalogue of read-only metrics',
    description:
      'Questions outside the catalogue, or asking for a change, are refused with 422 OPERATIONS_QUERY_REFUSED.',
    request: { body: OperationsQueryRequestSchema },
    responses: {
      200: { description: 'The interpreted query and its answer', schema: OperationsQueryResponseSchema },
      422: { description: 'Refused: outside the catalogue or not read-only' },
    },
    handler: async ({ body }) => ({
      status: 200,
      body: presentOperationsAnswer(body.question, await brain.answer(body.question)),
    }),
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/admin/brain/insights/summary',
    summary: 'Generated insights and a health score 0-100 with the factors behind it',
    responses: { 200: { description: 'Summary', schema: InsightsSummarySchema } },
    handler: async () => ({ status: 200, body: presentInsights(await brain.insights()) }),
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/admin/brain/users/:id/activity',
    summary: "A user's timeline across sign-in, world, economy, social, memory and signer",
    request: { params: UserActivityParamsSchema, query: UserActivityQuerySchema },
    responses: {
      200: { description: 'Timeline, newest first', schema: UserActivitySchema },
      404: { description: 'No such user' },
    },
    handler: async ({ params, query }) => ({
      status: 200,
      body: presentUserActivity(
        await brain.activity(params.id, { limit: query.limit, before: date(query.before) }),
      ),
    }),
  });
}
