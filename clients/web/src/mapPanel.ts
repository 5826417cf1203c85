/**
 * The map panel: the player's neighbourhood as the world sends it with every room description (`room.look`
 * `data.map`, and `map`'s `data.graph`; rooms/rules/mapView.ts over the room graph of rooms/roomGraph.ts), drawn as
 * an SVG with role `img` whose accessible name says where the player is and where the exits lead.
 */

import { type MapRoom, type MapView, mapLabel } from './mapWords';

export type { MapView };

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 40;
const BOX = 22;
const PAD = 16;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/**
 * Draws `map` into `figure` (the level the player stands on; north up): a box per room (`here`, `visited` or
 * `unexplored` classes), a line per passage between rooms on the map, small up/down marks, and the area's name in
 * `caption`.
 */
export function drawMapPanel(figure: SVGSVGElement, caption: HTMLElement, map: MapView): void {
  caption.textContent = `Map — ${map.area}`;
  figure.setAttribute('aria-label', mapLabel(map));
  figure.dataset.here = String(map.here);
  const here = map.rooms.find((room) => room.num === map.here);
  const level = map.rooms.filter((room) => room.z === (here?.z ?? 0));
  const xs = level.map((room) => room.x);
  const ys = level.map((room) => room.y);
  const [minX, maxY] = [Math.min(...xs), Math.max(...ys)];
  const width = (Math.max(...xs) - minX + 1) * CELL + PAD;
  const height = (maxY - Math.min(...ys) + 1) * CELL + PAD;
  figure.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const centre = (room: MapRoom): [number, number] => [
    PAD / 2 + (room.x - minX) * CELL + CELL / 2,
    PAD / 2 + (maxY - room.y) * CELL + CELL / 2,
  ];
  const byNum = new Map(level.map((room) => [room.num, room]));
  const parts: SVGElement[] = [];
  for (const room of level) {
    for (const num of Object.values(room.exits)) {
      const to = byNum.get(num);
      if (!to || to.num < room.num || !(room.visited || to.visited)) continue;
      const [x1, y1] = centre(room);
      const [x2, y2] = centre(to);
      parts.push(
        svg('line', { x1, y1, x2, y2, class: to.visited && room.visited ? 'passage' : 'passage unexplored' }),
      );
    }
  }
  for (const room of level) {
    const [cx, cy] = centre(room);
    const kind = room.num === map.here ? 'here' : room.visited ? 'visited' : 'unexplored';
    const box = svg('rect', {
      x: cx - BOX / 2,
      y: cy - BOX / 2,
      width: BOX,
      height: BOX,
      rx: 3,
      class: kind,
    });
    const title = svg('title', {});
    title.textContent = room.num === map.here ? `${room.name} (you are here)` : room.name;
    box.append(title);
    parts.push(box);
    const vertical = ['up', 'down'].filter((d) => d in room.exits).map((d) => (d === 'up' ? '↑' : '↓'));
    if (vertical.length) {
      const mark = svg('text', { x: cx, y: cy + 4, class: 'vertical' });
      mark.textContent = vertical.join('');
      parts.push(mark);
    }
  }
  figure.replaceChildren(...parts);
}
