import { matchMaker } from '@colyseus/core';
import { ensureAreaRoom } from './areaRoomListing';
import type { World } from './content/world';
import { EVENTS_MESSAGE, type EventDelivery, type PlayerSession } from './eventDelivery';
import type { PlayerSessions } from './playerSessions';
import type { Handoff } from './rules/movement';
import { narrate } from './text/narration';

/**
 * Completes a move into another area: the player leaves this room's state, is saved at the new room, and
 * each of their sockets gets an `area.handoff` event carrying a seat reservation for the target area room
 * (`client.consumeSeatReservation(event.data.reservation)` in the SDK).
 */
export async function handOff(
  world: World,
  players: PlayerSessions,
  delivery: EventDelivery,
  session: PlayerSession,
  to: Handoff,
): Promise<void> {
  players.detach(session);
  session.state.roomRef = to.roomRef;
  await players.persist(session);
  const listing = await ensureAreaRoom(to.areaId);
  delivery.flush(session);
  const areaName = world.areas.get(to.areaId)?.name ?? to.areaId;
  for (const client of session.clients) {
    const reservation = await matchMaker.reserveSeatFor(listing, {}, client.auth);
    const line = narrate(
      {
        type: 'area.handoff',
        areaId: to.areaId,
        areaName,
        roomRef: to.roomRef,
        reservation,
        to: { userId: session.identity.userId },
      },
      session.identity.userId,
    );
    client.send(EVENTS_MESSAGE, [line]);
  }
}
