import type { Request } from 'express';
import type { ApiRoutes } from '../../platform/http/routes';
import { type AuthGuard, userOf } from '../../access/authGuard';
import { mudError } from './errors';
import { presentLinkCode, presentOutcome } from './presenters';
import { LINK_CODE_TTL_SECONDS, type LinkCodes } from './telnet/linkCodes';
import {
  ActionRequestSchema,
  ActionResultSchema,
  ChannelParamsSchema,
  LinkCodeSchema,
  MoveRequestSchema,
  SpawnStatusSchema,
} from './schemas';
import type { WorldAccess } from './worldAccess';

const REFUSALS = {
  409: { description: 'The world refuses the action now (code and detail say why); nothing changed' },
  503: { description: 'No game process answers (WORLD_UNAVAILABLE)' },
};

/**
 * SPEC 4.4: `POST /mud/move`, `POST /mud/action`, `GET /mud/spawns/status` and the `WS /mud/ws/{user_id}` handshake;
 * with `linkCodes`, `POST /mud/telnet/code` (the web page's `link telnet`).
 */
export function registerMudRoutes(
  routes: ApiRoutes,
  access: WorldAccess,
  guard: AuthGuard,
  linkCodes?: LinkCodes,
): void {
  const playerOf = (req: Request) => access.player(userOf(req)!.userId);

  routes.add({
    method: 'post',
    path: '/mud/move',
    summary: 'Walk through an exit of your room',
    description:
      'Acts on the area room hosting your character, shared with SDK and plain-WebSocket players. 409 codes: ' +
      'NO_EXIT, IN_COMBAT (flee first), DEAD. Moving into another area hands you to that area (`handoff`).',
    tags: ['mud'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { body: MoveRequestSchema },
    responses: { 200: { description: 'Moved', schema: ActionResultSchema }, ...REFUSALS },
    handler: async ({ body, req }) => ({
      status: 200,
      body: presentOutcome(await access.act(await playerOf(req), { action: 'move', ...body })),
    }),
  });

  routes.add({
    method: 'post',
    path: '/mud/action',
    summary: 'Perform an action: look, fight/attack, flee, rest, talk, take, give, craft, quest, ...',
    description:
      'One action on the area room hosting your character. `events` starts with what happened around you ' +
      'since your previous call. 409 codes name the reason, e.g. NO_SUCH_TARGET, IN_COMBAT, NOT_FIGHTING, ' +
      'ALREADY_RESTING, NO_SUCH_NPC, NOT_CARRIED, MISSING_INGREDIENTS, STATION_REQUIRED, QUEST_INCOMPLETE, ' +
      'NPC_REFUSES, COMPANION_NOT_PURCHASABLE.',
    tags: ['mud'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { body: ActionRequestSchema },
    responses: { 200: { description: 'Done', schema: ActionResultSchema }, ...REFUSALS },
    handler: async ({ body, req }) => ({
      status: 200,
      body: presentOutcome(await access.act(await playerOf(req), body)),
    }),
  });

  routes.add({
    method: 'get',
    path: '/mud/spawns/status',
    summary: 'Live and pending creature spawns per area',
    tags: ['mud'],
    responses: {
      200: { description: 'Spawn status', schema: SpawnStatusSchema },
      503: REFUSALS[503],
    },
    handler: async () => ({ status: 200, body: await access.spawnStatus() }),
  });

  if (linkCodes) {
    routes.add({
      method: 'post',
      path: '/mud/telnet/code',
      summary: 'A one-time code that signs a telnet terminal into your character (`link telnet`)',
      description:
        `Type \`code <code>\` at the telnet prompt within ${LINK_CODE_TTL_SECONDS} seconds; it works once. ` +
        'Any session may ask (guests too), so a guest who started on the web page can go on in a MUD client.',
      tags: ['mud'],
      security: 'bearer',
      middleware: guard.requireUser,
      responses: { 201: { description: 'A new code', schema: LinkCodeSchema } },
      handler: async ({ req }) => ({
        status: 201,
        body: presentLinkCode(await linkCodes.issue(userOf(req)!.userId.toHexString())),
      }),
    });
  }

  routes.add({
    method: 'get',
    path: '/mud/ws/:user_id',
    summary: 'Real-time plain WebSocket channel (JSON text frames); upgrade with your session token',
    description:
      'Open with a WebSocket upgrade carrying `Authorization: Bearer <token>`, or (browsers) the ' +
      'subprotocols `mud.v1` and `bearer.<token>`. Only your own user id is accepted (403 CHANNEL_FORBIDDEN). ' +
      'Send action frames (the MudAction shapes, optionally with an `id`); receive `event`, `result` and ' +
      '`error` frames. A plain GET is answered 426.',
    tags: ['mud'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { params: ChannelParamsSchema },
    responses: {
      101: { description: 'Switching Protocols (WebSocket upgrade)' },
      403: { description: 'Another user’s channel' },
      426: { description: 'Not a WebSocket upgrade request' },
    },
    handler: () => {
      throw mudError('UPGRADE_REQUIRED', 'This is a WebSocket channel: connect with a WebSocket client.', {
        headers: { Upgrade: 'websocket' },
      });
    },
  });
}
