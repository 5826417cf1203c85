import type { Request } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../../access/authGuard';
import { userOf } from '../../access/authGuard';
import type { CompanionBrain } from './companionBrain';
import { presentCompanion, presentCompanionAnswer } from './presenters';
import {
  CompanionAnswerSchema,
  CompanionAskRequestSchema,
  CompanionParamsSchema,
  CompanionViewSchema,
  ForgetRequestSchema,
  ForgetResultSchema,
  PresenceRequestSchema,
} from './schemas';

/** The signed-in caller's user id (`requireUser` ran first). */
const callerOf = (req: Request) => userOf(req)!.userId.toHexString();

/** SPEC 1: the companion routes on the memory service, `/companions/brain/{companion}` and its actions. */
export function registerCompanionRoutes(routes: ApiRoutes, brain: CompanionBrain, guard: AuthGuard): void {
  routes.add({
    method: 'get',
    path: '/companions/brain/:companion',
    summary: 'Your companion: bond (1-5), presence and recent memories',
    tags: ['companions'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: CompanionParamsSchema },
    responses: { 200: { description: 'Your companion', schema: CompanionViewSchema } },
    handler: async ({ params, req }) => ({
      status: 200,
      body: presentCompanion(await brain.state(callerOf(req), params.companion)),
    }),
  });

  routes.add({
    method: 'put',
    path: '/companions/brain/:companion/presence',
    summary: 'Set when your companion speaks and acts (Always, On Demand, Subtle, Progressive, Silent)',
    description:
      'Applied in the world at once (the `companion presence` action); 503 WORLD_UNAVAILABLE without one.',
    tags: ['companions'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: CompanionParamsSchema, body: PresenceRequestSchema },
    responses: { 200: { description: 'Your companion', schema: CompanionViewSchema } },
    handler: async ({ params, body, req }) => ({
      status: 200,
      body: presentCompanion(await brain.setPresence(callerOf(req), params.companion, body.presence)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/companions/brain/:companion/ask',
    summary:
      'Ask your companion about what you shared ("where did we find the crystal?"), with the memories cited',
    tags: ['companions'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: CompanionParamsSchema, body: CompanionAskRequestSchema },
    responses: { 200: { description: 'The answer', schema: CompanionAnswerSchema } },
    handler: async ({ params, body, req }) => ({
      status: 200,
      body: presentCompanionAnswer(await brain.ask(callerOf(req), params.companion, body.question)),
    }),
  });

  routes.add({
    method: 'post',
    path: '/companions/brain/:companion/forget',
    summary: 'Make your companion forget one memory',
    tags: ['companions'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: CompanionParamsSchema, body: ForgetRequestSchema },
    responses: { 200: { description: 'Forgotten', schema: ForgetResultSchema } },
    handler: async ({ params, body, req }) => ({
      status: 200,
      body: { forgotten: await brain.forget(callerOf(req), params.companion, body.memory_id) },
    }),
  });
}
