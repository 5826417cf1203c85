import { z } from 'zod';
import { Direction } from '../../rooms/content/schemas';
import { MudAction } from '../../rooms/commands/actions';
import { actionSummary } from '../../rooms/commands/actionSummary';

/**
 * Request and response shapes of the world's HTTP routes (SPEC 4.4) and of the plain WebSocket frames. The
 * action shapes are the ones area rooms accept from SDK clients (`rooms/commands/actions.ts`).
 */

const roomRef = z.string().meta({ description: 'A room, as "area:id" (e.g. "village:square")' });

/** `POST /mud/move`. */
export const MoveRequestSchema = z.strictObject({ direction: Direction }).meta({ id: 'MudMoveRequest' });
export type MoveRequest = z.infer<typeof MoveRequestSchema>;

/** `POST /mud/action`: one action, discriminated by `action`; its description is read off the union itself. */
export const ActionRequestSchema = MudAction.meta({ id: 'MudAction', description: actionSummary() });

/** One thing a player witnessed: what to show (`text`), where (`channel`) and the structured event. */
export const MudEventSchema = z
  .object({
    type: z.string().meta({ description: 'Event type, e.g. room.look, combat.hit, chat.said, error' }),
    channel: z.enum(['room', 'combat', 'chat', 'info', 'quest', 'companion', 'system']),
    text: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'MudEvent' });
export type MudEventBody = z.infer<typeof MudEventSchema>;

/** The acting player's character after the action. */
export const PlayerSummarySchema = z
  .object({
    name: z.string(),
    room: roomRef,
    status: z.enum(['idle', 'fighting', 'resting', 'dead']),
    health: z.number().int(),
    max_health: z.number().int(),
    level: z.number().int(),
    xp: z.number().int(),
    currencies: z.object({ soft: z.number().int(), hard: z.number().int() }),
  })
  .meta({ id: 'MudPlayer' });

/** What `POST /mud/move` and `POST /mud/action` answer (and a plain-WebSocket `result` frame carries). */
export const ActionResultSchema = z
  .object({
    user_id: z.string(),
    area_id: z.string(),
    room: roomRef,
    player: PlayerSummarySchema,
    events: z.array(MudEventSchema).meta({
      description:
        'Events since your previous REST call (others moving, combat rounds, chat), then those of this action',
    }),
    handoff: z
      .object({ area_id: z.string(), room: roomRef })
      .optional()
      .meta({ description: 'Present when the action took you into another area' }),
  })
  .meta({ id: 'MudActionResult' });
export type ActionResult = z.infer<typeof ActionResultSchema>;

const SpawnPointSchema = z.object({
  id: z.string().meta({ description: '"<room>#<n>": the n-th spawn point of that room' }),
  room: roomRef,
  creature: z.string(),
  max: z.number().int(),
  live: z.number().int(),
  pending: z.number().int(),
});

/** `GET /mud/spawns/status`. */
export const SpawnStatusSchema = z
  .object({
    areas: z.array(
      z.object({
        area_id: z.string(),
        name: z.string(),
        running: z.boolean().meta({ description: 'Whether the area room is up (rooms start on first use)' }),
        budget: z.number().int().meta({ description: 'Most creatures alive in the area at once' }),
        live: z.number().int(),
        pending: z.number().int().meta({ description: 'Spawns waiting for their delay or for budget' }),
        points: z.array(SpawnPointSchema),
      }),
    ),
  })
  .meta({ id: 'MudSpawnStatus' });
export type SpawnStatusBody = z.infer<typeof SpawnStatusSchema>;

/** `WS /mud/ws/{user_id}` path parameter. */
export const ChannelParamsSchema = z.object({
  user_id: z.string().min(1).max(64).meta({ description: 'Your own user id (GET /auth/me `id`)' }),
});

/** The optional correlation id a plain-WebSocket client may add to an action frame (echoed in its reply). */
export const FrameIdSchema = z.string().min(1).max(64);

/** `POST /mud/telnet/code`: a one-time code that signs a telnet terminal into your character. */
export const LinkCodeSchema = z
  .object({
    code: z.string().meta({ description: 'Type `code <code>` at the telnet prompt', example: 'K7QX-M2PD' }),
    expires_at: z.iso.datetime(),
    expires_in: z.number().int().meta({ description: 'Seconds the code stays good (single use)' }),
  })
  .meta({ id: 'MudTelnetLinkCode' });
export type LinkCodeBody = z.infer<typeof LinkCodeSchema>;
