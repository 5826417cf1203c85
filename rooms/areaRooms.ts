import type { Server } from '@colyseus/core';
import { Encoder } from '@colyseus/schema';
import type { RoomDefinition } from '../platform/game/gameServer';
import { AREA_ROOM_DEFAULTS, type AreaRoomOptions, areaRoomName } from './areaRoomOptions';
import { AreaRoom } from './AreaRoom';

/** Encode buffer for area states: a crowded area outgrows the 8 KB default, so size it once, up front. */
export const AREA_ENCODE_BUFFER_BYTES = 256 * 1024;

/** Sets the schema encoder's buffer size for area rooms (once per process; never shrinks it). */
function configureEncoder(): void {
  if (Encoder.BUFFER_SIZE < AREA_ENCODE_BUFFER_BYTES) Encoder.BUFFER_SIZE = AREA_ENCODE_BUFFER_BYTES;
}

/** Options given once for every area room: everything but `areaId`, which each area's definition adds. */
export type AreaRoomDefinition = Omit<AreaRoomOptions, 'areaId'>;

/**
 * One room type per area of the world (`area_<areaId>`, see `areaRoomName`), each creating the `AreaRoom` of
 * its area. These are what the platform's game role registers (`ProductParts.rooms`).
 *
 * Every option is spelled out, defaults included: Colyseus merges the definition's options over the options
 * of the client whose join creates the room, so a key left out could be set by that client.
 */
export function areaRoomDefinitions(options: AreaRoomDefinition): RoomDefinition[] {
  configureEncoder();
  const complete: Required<
    Omit<
      AreaRoomOptions,
      'areaId' | 'clock' | 'logger' | 'ticker' | 'events' | 'market' | 'minds' | 'standings'
    >
  > &
    Pick<AreaRoomOptions, 'clock' | 'logger' | 'ticker' | 'events' | 'market' | 'minds' | 'standings'> = {
    seed: options.seed ?? AREA_ROOM_DEFAULTS.seed,
    tickMs: options.tickMs ?? AREA_ROOM_DEFAULTS.tickMs,
    aiEvery: options.aiEvery ?? AREA_ROOM_DEFAULTS.aiEvery,
    combatEvery: options.combatEvery ?? AREA_ROOM_DEFAULTS.combatEvery,
    regenEvery: options.regenEvery ?? AREA_ROOM_DEFAULTS.regenEvery,
    crowdedClients: options.crowdedClients ?? AREA_ROOM_DEFAULTS.crowdedClients,
    saveEveryMs: options.saveEveryMs ?? AREA_ROOM_DEFAULTS.saveEveryMs,
    durableActions: options.durableActions ?? AREA_ROOM_DEFAULTS.durableActions,
    remoteIdleMs: options.remoteIdleMs ?? AREA_ROOM_DEFAULTS.remoteIdleMs,
    maxMessagesPerSecond: options.maxMessagesPerSecond ?? AREA_ROOM_DEFAULTS.maxMessagesPerSecond,
    world: options.world,
    store: options.store,
    authenticate: options.authenticate,
    clock: options.clock,
    logger: options.logger,
    ticker: options.ticker,
    events: options.events,
    market: options.market,
    minds: options.minds,
    standings: options.standings,
  };
  return [...options.world.areas.keys()].map((areaId) => {
    const roomOptions: AreaRoomOptions = { ...complete, areaId };
    return {
      name: areaRoomName(areaId),
      room: AreaRoom,
      options: { ...roomOptions },
      authenticate: options.authenticate,
    };
  });
}

/** Defines every area's room type on a standalone Colyseus server (tests and benches). */
export function defineAreaRooms(server: Server, options: AreaRoomDefinition): void {
  for (const definition of areaRoomDefinitions(options)) {
    server.define(definition.name, definition.room, definition.options);
  }
}
