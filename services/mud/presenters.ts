import type { ActionOutcome } from '../../rooms/actionOutcome';
import type { AreaSpawnStatus } from '../../rooms/actionGateway';
import type { World } from '../../rooms/content/world';
import type { ActionResult, LinkCodeBody, SpawnStatusBody } from './schemas';
import type { IssuedLinkCode } from './telnet/linkCodes';

/** An action's outcome as the REST routes and plain-WebSocket `result` frames present it. */
export function presentOutcome(outcome: ActionOutcome): ActionResult {
  const { player } = outcome;
  return {
    user_id: outcome.userId,
    area_id: outcome.areaId,
    room: outcome.roomRef,
    player: {
      name: player.name,
      room: player.roomRef,
      status: player.status as ActionResult['player']['status'],
      health: player.health,
      max_health: player.maxHealth,
      level: player.level,
      xp: player.xp,
      currencies: { soft: player.soft, hard: player.hard },
    },
    events: outcome.events,
    ...(outcome.handoff
      ? { handoff: { area_id: outcome.handoff.areaId, room: outcome.handoff.roomRef } }
      : {}),
  };
}

/** Every area's spawn status, named from the world data. */
export function presentSpawnStatus(world: World, areas: AreaSpawnStatus[]): SpawnStatusBody {
  return {
    areas: areas.map((area) => ({
      area_id: area.areaId,
      name: world.areas.get(area.areaId)?.name ?? area.areaId,
      running: area.running,
      budget: area.budget,
      live: area.live,
      pending: area.pending,
      points: area.points.map((point) => ({
        id: point.id,
        room: point.roomRef,
        creature: point.creature,
        max: point.max,
        live: point.live,
        pending: point.pending,
      })),
    })),
  };
}

/** A telnet link code as `POST /mud/telnet/code` answers it. */
export function presentLinkCode(issued: IssuedLinkCode): LinkCodeBody {
  return { code: issued.code, expires_at: issued.expiresAt.toISOString(), expires_in: issued.expiresIn };
}
