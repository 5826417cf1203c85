import type { RequestHandler } from 'express';
import type { ApiRoutes } from '../../../platform/http/routes';
import { memoryError } from './errors';
import type { MemoryAuditLog } from './memoryAuditLog';
import type { MemoryKeeper } from './memoryKeeper';
import { presentMemory, presentRecall } from './presenters';
import {
  ForgetRequestSchema,
  ForgetResponseSchema,
  ListQuerySchema,
  MemoryIdParamsSchema,
  MemoryListSchema,
  MemoryRecordSchema,
  RecallRequestSchema,
  RecallResponseSchema,
  RememberRequestSchema,
  RememberResponseSchema,
  SessionParamsSchema,
  SubjectQuerySchema,
  WorkingMemorySchema,
} from './schemas';
import { auditContext, subjectOf } from './subjectAccess';

/** What the memory routes need. */
export interface MemoryRouteDependencies {
  memory: MemoryKeeper;
  audit: MemoryAuditLog;
  /** SPEC 5 `require_brain_auth`: a signed-in user (tier 1+) or the service token. */
  requireBrainAuth: RequestHandler[];
}

const forgetTarget = (body: { id?: string; session_id?: string; query?: string; confirm?: boolean }) => {
  if (body.id !== undefined) return { id: body.id };
  if (body.session_id !== undefined) return { session_id: body.session_id };
  if (body.confirm !== true) {
    throw memoryError('MEMORY_FORGET_UNCONFIRMED', 'Forgetting by query needs confirm: true', {
      errors: [{ path: 'body.confirm', message: 'must be true' }],
    });
  }
  return { query: body.query! };
};

/** SPEC 2.9 / 4.2 `/brain/memory/...`: remember, recall, forget, read and list a subject's memories. */
export function registerMemoryRoutes(routes: ApiRoutes, deps: MemoryRouteDependencies): void {
  const { memory, audit } = deps;
  const common = { tags: ['brain-memory'], security: 'bearer' as const, middleware: deps.requireBrainAuth };

  routes.add({
    ...common,
    method: 'post',
    path: '/brain/memory/remember',
    summary: "Remember something in a subject's memory (near-duplicates merge)",
    request: { body: RememberRequestSchema },
    responses: {
      201: {
        description: 'The memory (merged: true when it joined a near-duplicate)',
        schema: RememberResponseSchema,
      },
    },
    handler: async ({ body, req }) => {
      const subject = subjectOf(req, body.subject);
      const occurred_at = body.occurred_at ? new Date(body.occurred_at) : undefined;
      const { memory: saved, merged } = await memory.remember({ ...body, subject, occurred_at });
      audit.record({
        ...auditContext(req),
        subject,
        action: 'remember',
        memoryIds: [saved.id],
        details: { tier: saved.tier, merged },
      });
      return { status: 201, body: { ...presentMemory(saved), merged } };
    },
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/brain/memory/recall',
    summary: 'Recall memories ranked across tiers (hybrid search, recency and importance)',
    request: { body: RecallRequestSchema },
    responses: {
      200: {
        description: 'Hits, best first; the working memory of session_id',
        schema: RecallResponseSchema,
      },
    },
    handler: async ({ body, req }) => {
      const subject = subjectOf(req, body.subject);
      const as_of = body.as_of ? new Date(body.as_of) : undefined;
      const result = await memory.recall({ ...body, subject, as_of });
      audit.record({
        ...auditContext(req),
        subject,
        action: 'recall',
        memoryIds: result.hits.map((hit) => hit.memory.id),
      });
      return { status: 200, body: presentRecall(result) };
    },
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/brain/memory/forget',
    summary: 'Forget one memory, a session, or what a query matches (confirm: true) from every store',
    request: { body: ForgetRequestSchema },
    responses: {
      200: {
        description: 'The ids forgotten (an audit record without content is kept)',
        schema: ForgetResponseSchema,
      },
    },
    handler: async ({ body, req }) => {
      const subject = subjectOf(req, body.subject);
      const forgotten = await memory.forget(subject, forgetTarget(body));
      audit.record({ ...auditContext(req), subject, action: 'forget', memoryIds: forgotten });
      return { status: 200, body: { forgotten } };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/memory/working/:session_id',
    summary: "A session's working memory, oldest first",
    request: { params: SessionParamsSchema, query: SubjectQuerySchema },
    responses: { 200: { description: 'The working memory', schema: WorkingMemorySchema } },
    handler: async ({ params, query, req }) => {
      const subject = subjectOf(req, query.subject);
      const turns = await memory.working(subject, params.session_id);
      audit.record({
        ...auditContext(req),
        subject,
        action: 'read',
        memoryIds: turns.map((turn) => turn.id),
      });
      return { status: 200, body: { session_id: params.session_id, memories: turns.map(presentMemory) } };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/memory/:id',
    summary: 'One memory of the subject',
    request: { params: MemoryIdParamsSchema, query: SubjectQuerySchema },
    responses: {
      200: { description: 'The memory', schema: MemoryRecordSchema },
      404: { description: 'MEMORY_NOT_FOUND' },
    },
    handler: async ({ params, query, req }) => {
      const subject = subjectOf(req, query.subject);
      const found = await memory.get(subject, params.id);
      if (!found) throw memoryError('MEMORY_NOT_FOUND', `No memory ${params.id}`);
      audit.record({ ...auditContext(req), subject, action: 'read', memoryIds: [found.id] });
      return { status: 200, body: presentMemory(found) };
    },
  });

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/memory',
    summary: "The subject's stored memories, newest first, by tier or session (paginated)",
    request: { query: ListQuerySchema },
    responses: { 200: { description: 'A page of memories', schema: MemoryListSchema } },
    handler: async ({ query, req }) => {
      const subject = subjectOf(req, query.subject);
      const page = await memory.list({ ...query, subject });
      audit.record({
        ...auditContext(req),
        subject,
        action: 'list',
        memoryIds: page.memories.map((m) => m.id),
      });
      return {
        status: 200,
        body: { memories: page.memories.map(presentMemory), next_cursor: page.next_cursor },
      };
    },
  });
}
