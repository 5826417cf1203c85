import type { Direction } from '../content/schemas';
import { InvalidActionError } from '../rules/errors';
import type { VerbParser, VerbTable } from './lineWords';

/** Direction words and their abbreviations. */
const DIRECTIONS: Record<string, Direction> = {
  n: 'north',
  north: 'north',
  s: 'south',
  south: 'south',
  e: 'east',
  east: 'east',
  w: 'west',
  west: 'west',
  u: 'up',
  up: 'up',
  d: 'down',
  down: 'down',
  in: 'in',
  enter: 'in',
  out: 'out',
  leave: 'out',
};

const move: VerbParser = (rest, verb) => {
  const direction = DIRECTIONS[verb === 'go' || verb === 'move' ? rest : verb];
  if (!direction)
    throw new InvalidActionError(`"${rest || verb}" is not a direction: try n, s, e, w, u, d, in or out.`);
  return { action: 'move', direction };
};

const look: VerbParser = (rest) =>
  rest ? { action: 'examine', target: rest.replace(/^(at|in)\s+/i, '') } : { action: 'look' };

/** Getting about: `look [at thing]` (`l`), `go <direction>` (`move`) and every direction word (`n`, `north`, `in`...). */
export const MOVEMENT_VERBS: VerbTable = {
  look,
  l: look,
  go: move,
  move,
  ...Object.fromEntries(Object.keys(DIRECTIONS).map((word) => [word, move])),
};
