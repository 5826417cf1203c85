import type { Logger } from 'pino';
import type { World } from './content/world';
import type { MindRequest, Minds } from './minds';
import type { GameEvent } from './text/events';

/**
 * Asks the minds what an action consulted them about and answers the events that tell the player their replies
 * (NPC recollections, a companion's reply), in order. A mind that fails is logged and skipped: the world's own
 * lines stand. `stillHere` stops once the player has left the room.
 */
export async function askMinds(
  minds: Minds,
  requests: MindRequest[],
  deps: { world: World; log: Logger; userId: string; stillHere: () => boolean },
): Promise<GameEvent[]> {
  const told: GameEvent[] = [];
  for (const request of requests) {
    let reply;
    try {
      reply = await minds.answer(request);
    } catch (err) {
      deps.log.warn({ err, userId: deps.userId, kind: request.kind }, 'mind did not answer');
      continue;
    }
    if (!reply || !deps.stillHere()) continue;
    const to = { userId: deps.userId };
    told.push(
      request.kind === 'npc.talk'
        ? {
            type: 'npc.recalled',
            npc: { name: deps.world.npcs.get(request.npc)?.name ?? request.npc },
            text: reply.text,
            citations: reply.citations,
            to,
          }
        : {
            type: 'companion.recalled',
            companion: deps.world.companions.get(request.companion)?.name ?? request.companion,
            text: reply.text,
            citations: reply.citations,
            to,
          },
    );
  }
  return told;
}
