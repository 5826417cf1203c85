import { z } from 'zod';
import type { DecisionService } from '../../brain';
import {
  CreateDecisionSchema,
  DecisionCategorySchema,
  DecisionListSchema,
  DecisionStatusSchema,
  DecisionWithVersionsSchema,
} from '../../brain';
import { callerKey } from '../toolAccess';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';
import { pageLimit } from './caller';

const decisionId = z.string().min(1).max(100).meta({ description: 'A decision id (from decisions_list)' });

const ListInput = z.strictObject({
  category: DecisionCategorySchema.optional(),
  status: DecisionStatusSchema.optional().meta({ description: 'active, superseded or reverted' }),
  q: z.string().trim().min(1).max(200).optional().meta({
    description: 'Words the title, rationale or context contain',
  }),
  as_of: z.iso.datetime().optional().meta({ description: 'The history as it stood then (ISO 8601)' }),
  cursor: z.string().max(100).optional().meta({ description: 'next_cursor of the previous page' }),
  limit: pageLimit(100, 50),
});

const createShape = CreateDecisionSchema.shape;
const RecordInput = z.strictObject({
  title: createShape.title.meta({ description: 'The decision in one line' }),
  category: createShape.category,
  rationale: createShape.rationale.meta({ description: 'Why it was decided' }),
  context: createShape.context.meta({ description: 'The situation it answers' }),
  supersedes: createShape.supersedes.meta({ description: 'An active decision this one replaces' }),
});

type DecisionOutput = z.output<typeof DecisionWithVersionsSchema>;
const summariseDecision = (decision: DecisionOutput) =>
  `${decision.id} "${decision.title}" (${decision.category}): ${decision.status}, version ${decision.version}.`;

/** A state change: not read-only, not destructive (versions keep the history), not repeatable. */
const CHANGES = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };

/**
 * The decisions worker: the brain's decision log (SPEC 2.9, 3.3) with its temporal versions, through the brain's
 * DecisionService. Reads as `GET /brain/decisions` allows them (identity tier 1 and the service token); writes as
 * its write routes (operators, admins and the service token), each version recording the caller as its actor.
 */
export function decisionsWorker(decisions: DecisionService): Worker {
  return {
    name: 'decisions',
    description: 'The platform’s decision log: what was decided, why, and what superseded or reverted it.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'decisions_list',
        title: 'List decisions',
        description:
          'Decisions newest first, filtered by category, status or words; with as_of, the statuses they had ' +
          'then. Use it to learn why the platform is the way it is before proposing a change. Page with ' +
          'next_cursor.',
        input: ListInput,
        output: DecisionListSchema,
        annotations: READ_ONLY,
        access: ACCESS.registered,
        handler: ({ as_of: asOf, ...filter }) =>
          decisions.list({ ...filter, asOf: asOf ? new Date(asOf) : undefined }),
        summarise: ({ decisions: found, next_cursor: next }) =>
          found.length === 0
            ? 'No decisions.'
            : `${found.length} decisions:\n` +
              found
                .slice(0, 5)
                .map((decision) => `- ${decision.id} "${decision.title}" (${decision.status})`)
                .join('\n') +
              (next ? '\nMore with next_cursor.' : ''),
      }),
      defineTool({
        name: 'decision_get',
        title: 'Read a decision',
        description:
          'One decision with every version: who changed it, when, why, and what superseded it. ' +
          'DECISION_NOT_FOUND when there is none.',
        input: z.strictObject({ id: decisionId }),
        output: DecisionWithVersionsSchema,
        annotations: READ_ONLY,
        access: ACCESS.registered,
        handler: ({ id }) => decisions.get(id),
        summarise: summariseDecision,
      }),
      defineTool({
        name: 'decision_record',
        title: 'Record a decision',
        description:
          'Records a new active decision (version 1), optionally superseding an active one. It becomes ' +
          'searchable in the knowledge base. DECISION_TRANSITION_INVALID when `supersedes` is not active. For ' +
          'operators, admins and the service token.',
        input: RecordInput,
        output: DecisionWithVersionsSchema,
        annotations: CHANGES,
        access: ACCESS.operator,
        callsPerMinute: 30,
        handler: (input, { caller }) => decisions.record(input, callerKey(caller)),
        summarise: (decision) => `Recorded ${summariseDecision(decision)}`,
      }),
      defineTool({
        name: 'decision_supersede',
        title: 'Supersede a decision',
        description:
          'Marks an active decision superseded by another active one (`by`). DECISION_TRANSITION_INVALID ' +
          'unless both are active. For operators, admins and the service token.',
        input: z.strictObject({
          id: decisionId,
          by: decisionId.meta({ description: 'The active decision replacing it' }),
        }),
        output: DecisionWithVersionsSchema,
        annotations: CHANGES,
        access: ACCESS.operator,
        callsPerMinute: 30,
        handler: ({ id, by }, { caller }) => decisions.supersede(id, by, callerKey(caller)),
        summarise: (decision) => `Superseded by ${decision.superseded_by}: ${summariseDecision(decision)}`,
      }),
      defineTool({
        name: 'decision_revert',
        title: 'Revert a decision',
        description:
          'Records that an active decision was reverted (its outcome), with the reason; the decisions it had ' +
          'superseded become active again. DECISION_TRANSITION_INVALID unless it is active. For operators, admins ' +
          'and the service token.',
        input: z.strictObject({
          id: decisionId,
          reason: z.string().trim().min(1).max(2000).meta({ description: 'Why it is reverted' }),
        }),
        output: DecisionWithVersionsSchema,
        annotations: CHANGES,
        access: ACCESS.operator,
        callsPerMinute: 30,
        handler: ({ id, reason }, { caller }) => decisions.revert(id, reason, callerKey(caller)),
        summarise: (decision) => `Reverted ${summariseDecision(decision)}`,
      }),
    ],
  };
}
