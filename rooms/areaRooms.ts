import { type IRoomCache, type Server, matchMaker } from '@colyseus/core';
import { AREA_ROOM_NAME, type AreaRoomOptions, areaRoomId } from './areaRoomOptions';
import { AreaRoom } from './AreaRoom';

/** Options given once when defining area rooms: everything but `areaId`, which each join/create names. */
export type AreaRoomDefinition = Omit<AreaRoomOptions, 'areaId'>;

/**
 * Defines the area room type on a Colyseus server: `AREA_ROOM_NAME` filtered by `areaId`, so
 * `client.joinOrCreate('area', { areaId })` reaches that area's single room.
 */
export function defineAreaRooms(server: Server, options: AreaRoomDefinition, roomName = AREA_ROOM_NAME) {
  return server.define(roomName, AreaRoom, options as AreaRoomOptions).filterBy(['areaId']);
}

/**
 * The listing of `areaId`'s room, creating the room if no process hosts it yet. Room ids are fixed per area
 * and the matchmaker driver refuses duplicates, so concurrent callers end up with the same room.
 */
export async function ensureAreaRoom(roomName: string, areaId: string): Promise<IRoomCache> {
  const existing = await matchMaker.getRoomById(areaRoomId(areaId));
  if (existing) return existing;
  return matchMaker.createRoom(roomName, { areaId });
}
