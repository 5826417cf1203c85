/**
 * The words and shapes of the player's map (no DOM, so the server's tests read them too): the map the world sends
 * with every room description (`room.look` `data.map`, `map`'s `data.graph`; rooms/rules/mapView.ts) and what a
 * screen reader hears for it.
 */

/** One room on the player's map (rooms/rules/mapView.ts `MapRoom`). */
export interface MapRoom {
  num: number;
  name: string;
  x: number;
  y: number;
  z: number;
  exits: Record<string, number>;
  leaves?: Record<string, string>;
  visited: boolean;
}

/** The player's map (rooms/rules/mapView.ts `MapView`). */
export interface MapView {
  area: string;
  areaId: string;
  here: number;
  rooms: MapRoom[];
}

/** What a screen reader hears for the map: the area, the room, where each exit leads, how much is explored. */
export function mapLabel(map: MapView): string {
  const byNum = new Map(map.rooms.map((room) => [room.num, room]));
  const here = byNum.get(map.here);
  if (!here) return `Map of ${map.area}.`;
  const exits = Object.entries(here.exits).map(([direction, num]) => {
    const to = byNum.get(num)!;
    return `${direction} to ${to.name}${to.visited ? '' : ' (not explored yet)'}`;
  });
  const leaving = Object.entries(here.leaves ?? {}).map(([direction, area]) => `${direction} to ${area}`);
  const visited = map.rooms.filter((room) => room.visited).length;
  return [
    `Map of ${map.area}. You are in ${here.name}.`,
    exits.length + leaving.length ? `Exits: ${[...exits, ...leaving].join(', ')}.` : 'No exits.',
    `${visited} ${visited === 1 ? 'room' : 'rooms'} explored nearby.`,
  ].join(' ');
}
