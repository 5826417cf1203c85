import type { ApiRoutes } from '../../../platform/http/routes';
import type { AuthGuard } from '../../../access/authGuard';
import { actorOf } from '../memory/subjectAccess';
import { operatorOrService } from '../security/operatorOrService';
import type { DecisionLog } from './decisionLog';
import { presentDecision, presentDecisionWithVersions } from './presenters';
import {
  CreateDecisionSchema,
  DecisionListQuerySchema,
  DecisionListSchema,
  DecisionParamsSchema,
  DecisionWithVersionsSchema,
  RevertSchema,
  SupersedeSchema,
} from './schemas';

/** What the decision routes need. */
export interface DecisionRouteDependencies {
  decisions: DecisionLog;
  guard: Pick<AuthGuard, 'requireBrainAuth' | 'requireRole'>;
}

/** SPEC 2.9 / 3.3 decision tracking: readable by signed-in users and the service token, writable by operators. */
export function registerDecisionRoutes(routes: ApiRoutes, deps: DecisionRouteDependencies): void {
  const { decisions } = deps;
  const read = {
    tags: ['brain-decisions'],
    security: 'bearer' as const,
    middleware: deps.guard.requireBrainAuth,
  };
  const write = {
    tags: ['brain-decisions'],
    security: 'admin' as const,
    middleware: operatorOrService(deps.guard),
  };

  routes.add({
    ...write,
    method: 'post',
    path: '/brain/decisions',
    summary: 'Record a decision (operator or service token); `supersedes` marks an active one superseded',
    description:
      'A title, rationale or context the brain corpus would refuse as binary (a NUL, control characters) is 400 ' +
      'DECISION_TEXT_BINARY, and nothing is stored. The decision is then published into the corpus; if that fails ' +
      'the answer is still 201, with `publication.state` `failed`, and the publish is retried.',
    request: { body: CreateDecisionSchema },
    responses: {
      201: { description: 'The decision, version 1', schema: DecisionWithVersionsSchema },
      409: { description: 'DECISION_TRANSITION_INVALID' },
    },
    handler: async ({ body, req }) => {
      const created = await decisions.create({ ...body, actor: actorOf(req) });
      return { status: 201, body: presentDecisionWithVersions(created!) };
    },
  });

  routes.add({
    ...read,
    method: 'get',
    path: '/brain/decisions',
    summary:
      'Decision history, newest first (as_of: the statuses at that time; publication: only those pending, published or failed)',
    request: { query: DecisionListQuerySchema },
    responses: { 200: { description: 'A page of decisions', schema: DecisionListSchema } },
    handler: async ({ query }) => {
      const page = await decisions.list({
        ...query,
        asOf: query.as_of ? new Date(query.as_of) : undefined,
        limit: query.limit ?? 50,
      });
      return {
        status: 200,
        body: { decisions: page.decisions.map(presentDecision), next_cursor: page.next_cursor },
      };
    },
  });

  routes.add({
    ...read,
    method: 'get',
    path: '/brain/decisions/:id',
    summary: 'One decision with all its versions',
    request: { params: DecisionParamsSchema },
    responses: {
      200: { description: 'The decision', schema: DecisionWithVersionsSchema },
      404: { description: 'DECISION_NOT_FOUND' },
    },
    handler: async ({ params }) => ({
      status: 200,
      body: presentDecisionWithVersions(await decisions.get(params.id)),
    }),
  });

  routes.add({
    ...write,
    method: 'post',
    path: '/brain/decisions/:id/supersede',
    summary: 'Mark an active decision superseded by another active one',
    request: { params: DecisionParamsSchema, body: SupersedeSchema },
    responses: {
      200: { description: 'The superseded decision', schema: DecisionWithVersionsSchema },
      404: { description: 'DECISION_NOT_FOUND' },
      409: { description: 'DECISION_TRANSITION_INVALID' },
    },
    handler: async ({ params, body, req }) => ({
      status: 200,
      body: presentDecisionWithVersions(await decisions.supersede(params.id, body.by, actorOf(req))),
    }),
  });

  routes.add({
    ...write,
    method: 'post',
    path: '/brain/decisions/:id/revert',
    summary: 'Revert an active decision; what it superseded becomes active again',
    request: { params: DecisionParamsSchema, body: RevertSchema },
    responses: {
      200: { description: 'The reverted decision', schema: DecisionWithVersionsSchema },
      404: { description: 'DECISION_NOT_FOUND' },
      409: { description: 'DECISION_TRANSITION_INVALID' },
    },
    handler: async ({ params, body, req }) => ({
      status: 200,
      body: presentDecisionWithVersions(await decisions.revert(params.id, body.reason, actorOf(req))),
    }),
  });
}
