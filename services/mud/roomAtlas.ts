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
  /** Grid position within the area: x grows east, y grows south, z grows up. */
  coords: { x: number; y: number; z: number };
}

/** Room numbers live below this, so TinTin++'s default map (50,000 vnums) holds every room. */
export const ROOM_NUMBER_LIMIT = 50_000;

const STEP: Record<string, [number, number, number]> = {
  north: [0, -1, 0],
  south: [0, 1, 0],
  east: [1, 0, 0],
  west: [-1, 0, 0],
  up: [0, 0, 1],
  down: [0, 0, -1],
};

/**
 * The world's rooms numbered and laid out for mappers. A room's number is a hash of its ref (FNV-1a, folded into
 * 1-49999), so it stays the same across restarts and when other rooms are added; the rare collision moves the
 * later ref (in sorted order) to the next free number. Coordinates come from walking each area's compass and
 * up/down exits from its first room; a room that would land on a taken spot (or is reached only by in/out) goes
 * to the nearest free spot east of it, so no two rooms of an area share a position.
 */
export class RoomAtlas {
  private readonly rooms = new Map<string, AtlasRoom>();

  constructor(world: World) {
    const numbers = numberRooms([...world.rooms.keys()]);
    const coords = new Map<string, { x: number; y: number; z: number }>();
    for (const area of world.areas.values()) layOut(world, area.roomRefs, coords);
    for (const room of world.rooms.values()) {
      const exits: Record<string, number> = {};
      for (const [direction, target] of Object.entries(room.exits)) exits[direction] = numbers.get(target)!;
      this.rooms.set(room.ref, {
        num: numbers.get(room.ref)!,
        ref: room.ref,
        name: room.name,
        areaId: room.areaId,
        areaName: world.areas.get(room.areaId)?.name ?? room.areaId,
        exits,
        coords: coords.get(room.ref)!,
      });
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

/** FNV-1a (32 bits) of the ref, folded into 1..ROOM_NUMBER_LIMIT-1, collisions moved on in sorted ref order. */
function numberRooms(refs: string[]): Map<string, number> {
  const numbers = new Map<string, number>();
  const taken = new Set<number>();
  for (const ref of [...refs].sort()) {
    let num = (fnv1a(ref) % (ROOM_NUMBER_LIMIT - 1)) + 1;
    while (taken.has(num)) num = (num % (ROOM_NUMBER_LIMIT - 1)) + 1;
    taken.add(num);
    numbers.set(ref, num);
  }
  return numbers;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Breadth-first layout of one area's rooms from its first room; unreached rooms start new walks further east. */
function layOut(
  world: World,
  refs: string[],
  coords: Map<string, { x: number; y: number; z: number }>,
): void {
  const inArea = new Set(refs);
  const taken = new Set<string>();
  const place = (ref: string, x: number, y: number, z: number) => {
    while (taken.has(`${x},${y},${z}`)) x += 1;
    taken.add(`${x},${y},${z}`);
    coords.set(ref, { x, y, z });
  };
  for (const start of refs) {
    if (coords.has(start)) continue;
    const placed = refs.filter((ref) => coords.has(ref)).map((ref) => coords.get(ref)!.x);
    place(start, placed.length === 0 ? 0 : Math.max(...placed) + 2, 0, 0);
    const queue = [start];
    while (queue.length > 0) {
      const ref = queue.shift()!;
      const here = coords.get(ref)!;
      const exits = Object.entries(world.rooms.get(ref)!.exits).sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [direction, target] of exits) {
        if (!inArea.has(target) || coords.has(target)) continue;
        const [dx, dy, dz] = STEP[direction] ?? [1, 0, 0];
        place(target, here.x + dx, here.y + dy, here.z + dz);
        queue.push(target);
      }
    }
  }
}
