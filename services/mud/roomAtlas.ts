import { roomGraph } from '../../rooms/roomGraph';
import type { World } from '../../rooms/content/world';

/** One room as MUD clients' mappers know it (GMCP `Room.Info`). */
export interface AtlasRoom {
  /** Stable number of the room (1-49999): the same on every start for the same room ref. */
  num: number;
  ref: string;
  name: string;
  areaId: string;
  areaName: string;
  /** Exits as direction → the number of the room they lead to. */
  exits: Record<string, number>;
  /** Grid position within the area: x grows east, y grows north (Mudlet's convention), z grows up. */
  coords: { x: number; y: number; z: number };
}

/** Room numbers live below this, so TinTin++'s default map (50,000 vnums) holds every room. */
export const ROOM_NUMBER_LIMIT = 50_000;

/**
 * The world's room graph (`roomGraph` in rooms/: the same numbers and coordinates as the `map` command and the web
 * client's map panel) in the shape the telnet channel's GMCP messages take.
 */
export class RoomAtlas {
  private readonly rooms = new Map<string, AtlasRoom>();

  constructor(world: World) {
    for (const node of roomGraph(world).rooms.values()) {
      const { x, y, z, exits, ...room } = node;
      this.rooms.set(node.ref, { ...room, exits: { ...exits }, coords: { x, y, z } });
    }
  }

  /** The room `ref` (`"area:id"`), or undefined for a ref the world does not have. */
  room(ref: string): AtlasRoom | undefined {
    return this.rooms.get(ref);
  }

  /** Every room, in ref order. */
  all(): AtlasRoom[] {
    return [...this.rooms.values()].sort((a, b) => (a.ref < b.ref ? -1 : 1));
  }
}
