import { type RoomNode, roomGraph } from '../roomGraph';
import type { SimContext } from './context';
import { requirePlayer } from './context';

/**
 * `map`: the player's neighbourhood in this area — the visited rooms within `MAP_RADIUS` steps, the exits out of
 * them and the rooms those lead to that the player has not explored yet — laid out on the room graph's coordinates
 * (`rooms/roomGraph.ts`). The same view rides along with every `room.look` the player gets (`data.map`), so a client
 * can draw its map panel without asking.
 */

/** How many steps from the player the map reaches. */
export const MAP_RADIUS = 3;

/** One room on a player's map. */
export interface MapRoom {
  num: number;
  name: string;
  x: number;
  y: number;
  z: number;
  /** direction → room number, only toward rooms on this map. */
  exits: Record<string, number>;
  /** Exits that lead out of the area, as direction → the area's name. */
  leaves?: Record<string, string>;
  /** False for a room seen only as where an exit leads (drawn `[?]`). */
  visited: boolean;
}

/** A player's map: the area, the room they are in (its number) and the rooms around it. */
export interface MapView {
  area: string;
  areaId: string;
  here: number;
  rooms: MapRoom[];
}

/** The neighbourhood map of the player's room (marks the room visited). */
export function mapAround(ctx: SimContext, userId: string): MapView {
  const player = requirePlayer(ctx, userId);
  const visited = ctx.journal(userId).visited;
  visited.add(player.roomRef);
  const graph = roomGraph(ctx.world);
  const here = graph.rooms.get(player.roomRef)!;
  const depth = new Map<string, number>([[here.ref, 0]]);
  const queue = [here.ref];
  while (queue.length > 0) {
    const ref = queue.shift()!;
    if (!visited.has(ref) || depth.get(ref)! >= MAP_RADIUS) continue;
    for (const target of Object.values(ctx.world.rooms.get(ref)!.exits)) {
      if (!target || depth.has(target) || graph.rooms.get(target)?.areaId !== here.areaId) continue;
      depth.set(target, depth.get(ref)! + 1);
      queue.push(target);
    }
  }
  const onMap = new Set([...depth.keys()].map((ref) => graph.rooms.get(ref)!.num));
  const rooms = [...depth.keys()].map((ref) => mapRoom(ctx, graph.rooms.get(ref)!, onMap, visited.has(ref)));
  return { area: here.areaName, areaId: here.areaId, here: here.num, rooms };
}

function mapRoom(ctx: SimContext, node: RoomNode, onMap: Set<number>, visited: boolean): MapRoom {
  const graph = roomGraph(ctx.world);
  const exits: Record<string, number> = {};
  const leaves: Record<string, string> = {};
  for (const [direction, num] of Object.entries(node.exits)) {
    if (onMap.has(num!)) exits[direction] = num!;
    const target = graph.byNum.get(num!)!;
    if (visited && target.areaId !== node.areaId) leaves[direction] = target.areaName;
  }
  const { num, name, x, y, z } = node;
  return { num, name, x, y, z, exits, ...(Object.keys(leaves).length ? { leaves } : {}), visited };
}

/**
 * Draws a map's level of the player as text: `[@]` you, `[ ]` visited rooms, `[?]` rooms not yet explored, `-` and
 * `|` passages between neighbours (north at the top); then the rooms with up/down/in/out exits and exits that leave
 * the area, one line each.
 */
export function drawGrid(map: MapView): { grid: string; vertical: string[] } {
  const here = map.rooms.find((room) => room.num === map.here)!;
  const level = map.rooms.filter((room) => room.z === here.z);
  const at = new Map(level.map((room) => [`${room.x},${room.y}`, room]));
  const xs = level.map((room) => room.x);
  const ys = level.map((room) => room.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const linked = (room: MapRoom | undefined, direction: string, to: MapRoom | undefined) =>
    !!room && !!to && room.exits[direction] === to.num && (room.visited || to.visited);
  const lines: string[] = [];
  for (let y = maxY; y >= minY; y--) {
    let row = '';
    let below = '';
    for (let x = minX; x <= maxX; x++) {
      const room = at.get(`${x},${y}`);
      row += !room ? '   ' : room.num === map.here ? '[@]' : room.visited ? '[ ]' : '[?]';
      row += linked(room, 'east', at.get(`${x + 1},${y}`)) ? '-' : ' ';
      below += linked(room, 'south', at.get(`${x},${y - 1}`)) ? ' | ' : '   ';
      below += ' ';
    }
    lines.push(row.trimEnd());
    if (y > minY) lines.push(below.trimEnd());
  }
  const vertical = map.rooms
    .filter((room) => room.visited)
    .flatMap((room) => {
      const ways = ['up', 'down', 'in', 'out'].filter((d) => d in room.exits);
      const out = Object.entries(room.leaves ?? {}).map(([d, area]) => `${d} to ${area}`);
      return ways.length || out.length ? [`${room.name}: ${[...ways, ...out].join(', ')}`] : [];
    });
  return { grid: lines.join('\n'), vertical };
}

/** `map`: draws the neighbourhood map for the player. */
export function drawMap(ctx: SimContext, userId: string): void {
  const map = mapAround(ctx, userId);
  const { grid, vertical } = drawGrid(map);
  ctx.emit({
    type: 'map',
    area: map.area,
    here: map.rooms.find((room) => room.num === map.here)!.name,
    grid,
    rooms: map.rooms.filter((room) => room.visited).map((room) => room.name),
    vertical,
    graph: map,
    to: { userId },
  });
}
