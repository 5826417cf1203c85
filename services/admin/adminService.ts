import type { z } from 'zod';
import type { AdminBrain } from './adminBrain';
import type { AuditSearchInput } from './audit/auditSearch';
import { auditRangeInvalid } from './errors';
import {
  presentAuditSearch,
  presentInsights,
  presentOperationsAnswer,
  presentPatterns,
  presentUserActivity,
} from './presenters';
import type {
  AdminStatusSchema,
  AuditSearchResponseSchema,
  InsightsSummarySchema,
  OperationsQueryResponseSchema,
  PatternResponseSchema,
  UserActivitySchema,
} from './schemas';

/**
 * The admin brain's operations as other areas (the MCP gateway) call them: the same commands and presenters as the
 * /admin/brain routes. The caller checks that an admin is asking.
 */
export interface AdminService {
  /** GET /admin/brain/status. */
  status(): Promise<z.infer<typeof AdminStatusSchema>>;
  /** POST /admin/brain/search/audit (422 AUDIT_RANGE_INVALID when `from` is after `to`). */
  searchAudit(input: AuditSearchInput): Promise<z.infer<typeof AuditSearchResponseSchema>>;
  /** POST /admin/brain/detect/patterns. */
  detectPatterns(input: { window: string; kinds?: string[] }): Promise<z.infer<typeof PatternResponseSchema>>;
  /** POST /admin/brain/query/operations (422 OPERATIONS_QUERY_REFUSED outside the catalogue). */
  answer(question: string): Promise<z.infer<typeof OperationsQueryResponseSchema>>;
  /** GET /admin/brain/insights/summary: insights and the health score. */
  insights(): Promise<z.infer<typeof InsightsSummarySchema>>;
  /** GET /admin/brain/users/:id/activity (404 for an unknown user). */
  activity(
    userId: string,
    options: { limit: number; before?: Date },
  ): Promise<z.infer<typeof UserActivitySchema>>;
}

/** The service interface over the admin brain. */
export function adminService(brain: AdminBrain): AdminService {
  return {
    status: () => brain.status(),
    searchAudit: async (input) => {
      if (input.from && input.to && input.from > input.to) throw auditRangeInvalid();
      return presentAuditSearch(await brain.searchAudit(input));
    },
    detectPatterns: async (input) => presentPatterns(await brain.detectPatterns(input)),
    answer: async (question) => presentOperationsAnswer(question, await brain.answer(question)),
    insights: async () => presentInsights(await brain.insights()),
    activity: async (userId, options) => presentUserActivity(await brain.activity(userId, options)),
  };
}
