import type { z } from 'zod';
import type { DecisionCategory, DecisionStatus } from '../../../models/Decision';
import type { DecisionLog } from './decisionLog';
import { presentDecision, presentDecisionWithVersions } from './presenters';
import type { DecisionSchema, DecisionWithVersionsSchema } from './schemas';

type Decision = z.infer<typeof DecisionSchema>;
type DecisionWithVersions = z.infer<typeof DecisionWithVersionsSchema>;

/** A decision to record, as POST /brain/decisions takes it. */
export interface DecisionDraft {
  title: string;
  category: DecisionCategory;
  rationale: string;
  context?: string;
  supersedes?: string;
}

/** Filters of the decision history, as GET /brain/decisions takes them. */
export interface DecisionFilter {
  category?: DecisionCategory;
  status?: DecisionStatus;
  q?: string;
  asOf?: Date;
  cursor?: string;
  limit: number;
}

/**
 * The decision log's operations as other areas (the MCP gateway) call them: the same commands and presenters as the
 * /brain/decisions routes. `actor` is `user:<id>` or `service`; the caller checks who may write (operators and the
 * service token).
 */
export interface DecisionService {
  list(filter: DecisionFilter): Promise<{ decisions: Decision[]; next_cursor: string | null }>;
  /** One decision with all its versions (404 DECISION_NOT_FOUND). */
  get(id: string): Promise<DecisionWithVersions>;
  /** Records an active decision, superseding `supersedes` when given (409 DECISION_TRANSITION_INVALID). */
  record(draft: DecisionDraft, actor: string): Promise<DecisionWithVersions>;
  /** Marks an active decision superseded by another active one. */
  supersede(id: string, by: string, actor: string): Promise<DecisionWithVersions>;
  /** Reverts an active decision; what it superseded becomes active again. */
  revert(id: string, reason: string, actor: string): Promise<DecisionWithVersions>;
}

/** The service interface over the decision log. */
export function decisionService(log: DecisionLog): DecisionService {
  return {
    list: async (filter) => {
      const page = await log.list(filter);
      return { decisions: page.decisions.map(presentDecision), next_cursor: page.next_cursor };
    },
    get: async (id) => presentDecisionWithVersions(await log.get(id)),
    // Without an id of its own, create never answers null (that is for consolidation's stable ids).
    record: async (draft, actor) => presentDecisionWithVersions((await log.create({ ...draft, actor }))!),
    supersede: async (id, by, actor) => presentDecisionWithVersions(await log.supersede(id, by, actor)),
    revert: async (id, reason, actor) => presentDecisionWithVersions(await log.revert(id, reason, actor)),
  };
}
