import type { SimContext } from './context';
import { requirePlayer } from './context';

/** `map`: the rooms of this area the player has visited, drawn as a text grid. */

const STEP: Record<string, [number, number]> = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };

/**
 * Lays the visited rooms of the area on a grid by walking compass exits from the player's room, then
 * draws `[@]` for the player, `[ ]` for other rooms, `-` and `|` for passages, and lists rooms with
 * up/down/in/out exits beneath. Rooms that would overlap an earlier one are listed, not drawn.
 */
export function drawMap(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const visited = ctx.journal(userId).visited;
  visited.add(player.roomRef);
  const known = (ref: string) => visited.has(ref) && ctx.world.rooms.get(ref)?.areaId === ctx.area.id;
  const at = new Map<string, [number, number]>([[player.roomRef, [0, 0]]]);
  const taken = new Map<string, string>([['0,0', player.roomRef]]);
  const queue = [player.roomRef];
  while (queue.length > 0) {
    const ref = queue.shift()!;
    const [x, y] = at.get(ref)!;
    for (const [direction, target] of Object.entries(ctx.world.rooms.get(ref)!.exits)) {
      const step = STEP[direction];
      if (!step || !known(target as string) || at.has(target as string)) continue;
      const spot: [number, number] = [x + step[0], y + step[1]];
      if (taken.has(spot.join(','))) continue;
      at.set(target as string, spot);
      taken.set(spot.join(','), target as string);
      queue.push(target as string);
    }
  }
  const xs = [...at.values()].map(([x]) => x);
  const ys = [...at.values()].map(([, y]) => y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const lines: string[] = [];
  for (let y = minY; y <= maxY; y++) {
    let row = '';
    let below = '';
    for (let x = minX; x <= maxX; x++) {
      const ref = taken.get(`${x},${y}`);
      const exits = ref ? ctx.world.rooms.get(ref)!.exits : {};
      row += ref ? (ref === player.roomRef ? '[@]' : '[ ]') : '   ';
      row += ref && exits.east && taken.get(`${x + 1},${y}`) === exits.east ? '-' : ' ';
      below += ref && exits.south && taken.get(`${x},${y + 1}`) === exits.south ? ' | ' : '   ';
      below += ' ';
    }
    lines.push(row.trimEnd());
    if (y < maxY) lines.push(below.trimEnd());
  }
  const vertical = [...at.keys()]
    .map((ref) => ctx.world.rooms.get(ref)!)
    .filter((room) => ['up', 'down', 'in', 'out'].some((d) => d in room.exits))
    .map((room) => `${room.name}: ${['up', 'down', 'in', 'out'].filter((d) => d in room.exits).join(', ')}`);
  ctx.emit({
    type: 'map',
    area: ctx.area.name,
    here: ctx.world.rooms.get(player.roomRef)!.name,
    grid: lines.join('\n'),
    rooms: [...at.keys()].map((ref) => ctx.world.rooms.get(ref)!.name),
    vertical,
    to: { userId },
  });
}
