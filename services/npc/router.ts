import type { Request } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import type { AuthGuard } from '../../access/authGuard';
import { userOf } from '../../access/authGuard';
import type { NpcBrain, NpcCaller } from './npcBrain';
import { presentNpcAnswer, presentNpcMemories, presentRelationship } from './presenters';
import {
  NpcAnswerSchema,
  NpcAskRequestSchema,
  NpcMemoriesQuerySchema,
  NpcMemoryPageSchema,
  NpcParamsSchema,
  NpcRelationshipSchema,
} from './schemas';

/** The signed-in caller (`requireUser` ran first) and whether they are an operator or admin. */
function callerOf(req: Request): NpcCaller {
  const user = userOf(req)!;
  return {
    userId: user.userId.toHexString(),
    operator: user.roles.includes('operator') || user.roles.includes('admin'),
  };
}

/** SPEC 1: the NPC routes on the memory service: `/npc/brain/{npc}/memories`, `/ask`, `/relationship`. */
export function registerNpcRoutes(routes: ApiRoutes, brain: NpcBrain, guard: AuthGuard): void {
  routes.add({
    method: 'get',
    path: '/npc/brain/:npc/memories',
    summary: 'What an NPC remembers of a player (yours; any player’s for operators)',
    description:
      'Newest first. A player reads only their own history (`player` absent or their own id, else 403 ' +
      'NOT_YOUR_HISTORY); an operator may name any player or leave `player` out for every player’s.',
    tags: ['npc'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: NpcParamsSchema, query: NpcMemoriesQuerySchema },
    responses: { 200: { description: 'A page of memories', schema: NpcMemoryPageSchema } },
    handler: async ({ params, query, req }) => {
      const npc = brain.npc(params.npc);
      return { status: 200, body: presentNpcMemories(npc, await brain.memories(npc, callerOf(req), query)) };
    },
  });

  routes.add({
    method: 'post',
    path: '/npc/brain/:npc/ask',
    summary:
      'Ask an NPC about the world: answered in character from lore and its memories of you, with citations',
    tags: ['npc'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: NpcParamsSchema, body: NpcAskRequestSchema },
    responses: { 200: { description: 'The answer', schema: NpcAnswerSchema } },
    handler: async ({ params, body, req }) => {
      const npc = brain.npc(params.npc);
      return {
        status: 200,
        body: presentNpcAnswer(npc, await brain.ask(npc, callerOf(req).userId, body.question)),
      };
    },
  });

  routes.add({
    method: 'get',
    path: '/npc/brain/:npc/relationship',
    summary: 'Your standing with an NPC (score, disposition) and the remembered reasons for it',
    tags: ['npc'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: NpcParamsSchema },
    responses: { 200: { description: 'Your standing', schema: NpcRelationshipSchema } },
    handler: async ({ params, req }) => {
      const npc = brain.npc(params.npc);
      return { status: 200, body: presentRelationship(await brain.relationship(npc, callerOf(req).userId)) };
    },
  });
}
