import { type IRoomCache, matchMaker } from '@colyseus/core';
import { areaRoomId, areaRoomName } from './areaRoomOptions';

/**
 * The listing of `areaId`'s room, creating the room if no process hosts it yet. Room ids are fixed per area
 * and the matchmaker driver refuses duplicates, so concurrent callers end up with the same room. It names the room
 * type only, never the `AreaRoom` class, so the handoff (which `AreaRoom` runs) and the gateway reach rooms without
 * an import circle.
 */
export async function ensureAreaRoom(areaId: string): Promise<IRoomCache> {
  const existing = await matchMaker.getRoomById(areaRoomId(areaId));
  if (existing) return existing;
  return matchMaker.createRoom(areaRoomName(areaId), {});
}
