import type { Direction } from './content/schemas';
import type { World } from './content/world';

/**
 * The world's rooms as a numbered graph with map coordinates: what `map`, the web client's map panel and the telnet
 * channel's GMCP `Room.Info` (Mudlet's and TinTin++'s mappers) all draw from. A pure function of the world content:
 * every process computes the same numbers and coordinates, so they are stable across restarts and servers.
 *
 * - `num`: a room number in 1..49999 (TinTin++'s default map size), from a hash of the room's `"area:id"`, so adding
 *   a room does not renumber the others (a rare hash collision is resolved by probing, in ref order).
 * - `x`, `y`, `z`: per area, laid out from the area's first room (0,0,0) by walking exits: east is x+1, north y+1
 *   (Mudlet's convention), up z+1. `in`/`out` and exits whose spot is already taken land on the nearest free spot of
 *   the same level, so no two rooms of an area share coordinates.
 */
export interface RoomNode {
  num: number;
  ref: string;
  name: string;
  areaId: string;
  areaName: string;
  x: number;
  y: number;
  z: number;
  /** Every exit as direction → room number (exits into other areas included). */
  exits: Partial<Record<Direction, number>>;
}

/** The whole world's room graph, by ref and by number. */
export interface RoomGraph {
  rooms: ReadonlyMap<string, RoomNode>;
  byNum: ReadonlyMap<number, RoomNode>;
}

/** The compass and vertical steps; `in` and `out` have none (they take the nearest free spot). */
export const DIRECTION_STEPS: Partial<Record<Direction, [number, number, number]>> = {
  north: [0, 1, 0],
  south: [0, -1, 0],
  east: [1, 0, 0],
  west: [-1, 0, 0],
  up: [0, 0, 1],
  down: [0, 0, -1],
};

const ROOM_NUMBERS = 49_999;

/** FNV-1a over the ref: the home slot of its number. */
function homeSlot(ref: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < ref.length; i++) {
    hash ^= ref.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % ROOM_NUMBERS;
}

function numberRooms(refs: string[]): Map<string, number> {
  const taken = new Set<number>();
  const numbers = new Map<string, number>();
  for (const ref of [...refs].sort()) {
    let slot = homeSlot(ref);
    while (taken.has(slot)) slot = (slot + 1) % ROOM_NUMBERS;
    taken.add(slot);
    numbers.set(ref, slot + 1);
  }
  return numbers;
}

/** The free (x, y) nearest to `want` on level z, searching rings outward. */
function nearestFree(used: Set<string>, [x, y, z]: [number, number, number]): [number, number, number] {
  for (let ring = 0; ; ring++) {
    for (let dx = -ring; dx <= ring; dx++) {
      for (let dy = -ring; dy <= ring; dy++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== ring) continue;
        if (!used.has(`${x + dx},${y + dy},${z}`)) return [x + dx, y + dy, z];
      }
    }
  }
}

function layOutArea(world: World, roomRefs: string[]): Map<string, [number, number, number]> {
  const at = new Map<string, [number, number, number]>();
  const used = new Set<string>();
  const place = (ref: string, spot: [number, number, number]) => {
    const free = nearestFree(used, spot);
    at.set(ref, free);
    used.add(free.join(','));
  };
  const inArea = new Set(roomRefs);
  for (const start of roomRefs) {
    if (at.has(start)) continue;
    // A part of the area only reachable from outside it starts beside what is laid out already.
    place(start, [0, 0, 0]);
    const queue = [start];
    while (queue.length > 0) {
      const ref = queue.shift()!;
      const [x, y, z] = at.get(ref)!;
      for (const [direction, target] of Object.entries(world.rooms.get(ref)!.exits)) {
        if (!target || !inArea.has(target) || at.has(target)) continue;
        const [dx, dy, dz] = DIRECTION_STEPS[direction as Direction] ?? [0, 0, 0];
        place(target, [x + dx, y + dy, z + dz]);
        queue.push(target);
      }
    }
  }
  return at;
}

function buildRoomGraph(world: World): RoomGraph {
  const numbers = numberRooms([...world.rooms.keys()]);
  const rooms = new Map<string, RoomNode>();
  for (const area of world.areas.values()) {
    const spots = layOutArea(world, area.roomRefs);
    for (const ref of area.roomRefs) {
      const room = world.rooms.get(ref)!;
      const [x, y, z] = spots.get(ref)!;
      const exits: RoomNode['exits'] = {};
      for (const [direction, target] of Object.entries(room.exits)) {
        if (target) exits[direction as Direction] = numbers.get(target)!;
      }
      rooms.set(ref, {
        num: numbers.get(ref)!,
        ref,
        name: room.name,
        areaId: area.id,
        areaName: area.name,
        x,
        y,
        z,
        exits,
      });
    }
  }
  return { rooms, byNum: new Map([...rooms.values()].map((node) => [node.num, node])) };
}

const graphs = new WeakMap<World, RoomGraph>();

/** The room graph of `world`, computed once per loaded world. */
export function roomGraph(world: World): RoomGraph {
  let graph = graphs.get(world);
  if (!graph) graphs.set(world, (graph = buildRoomGraph(world)));
  return graph;
}
