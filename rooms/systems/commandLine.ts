import type { Direction } from '../content/schemas';
import { InvalidActionError } from './errors';
import type { MudAction } from './actions';

/**
 * The MUD command line: turns what a player types (`n`, `attack rat`, `say hello all`, `give 2 bread to ann`) into
 * one structured action. Clients that show a text prompt (the web client, a terminal, a chat bridge) send it as the
 * `command` action `{ action: "command", line }`; the structured actions stay the protocol for programs.
 *
 * Verbs are a table (verb and its aliases → a parser of the rest of the line), so new actions add a row.
 */
type VerbParser = (rest: string, verb: string) => MudAction;

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

/** `"2 bread"` → `{ item: "bread", qty: 2 }`; `"all bread"` is not a quantity, the whole text is the item. */
function itemAndQty(text: string): { item: string; qty?: number } {
  const match = /^(\d{1,3})\s+(.+)$/.exec(text);
  return match ? { item: match[2], qty: Number(match[1]) } : { item: text };
}

function required(rest: string, verb: string, what: string): string {
  if (!rest) throw new InvalidActionError(`"${verb}" needs ${what}: try "${verb} <${what}>".`);
  return rest;
}

const move: VerbParser = (rest, verb) => {
  const direction = DIRECTIONS[verb === 'go' || verb === 'move' ? rest : verb];
  if (!direction)
    throw new InvalidActionError(`"${rest || verb}" is not a direction: try n, s, e, w, u, d, in or out.`);
  return { action: 'move', direction };
};

const VERBS: Record<string, VerbParser> = {
  look: () => ({ action: 'look' }),
  l: () => ({ action: 'look' }),
  go: move,
  move,
  ...Object.fromEntries(Object.keys(DIRECTIONS).map((word) => [word, move])),
  attack: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  kill: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  k: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  fight: (rest, verb) => ({ action: 'fight', target: required(rest, verb, 'target') }),
  flee: () => ({ action: 'flee' }),
  rest: () => ({ action: 'rest' }),
  talk: (rest, verb) => ({ action: 'talk', npc: required(rest.replace(/^(to|with)\s+/i, ''), verb, 'npc') }),
  take: (rest, verb) => ({ action: 'take', ...itemAndQty(required(rest, verb, 'item')) }),
  get: (rest, verb) => ({ action: 'take', ...itemAndQty(required(rest, verb, 'item')) }),
  drop: (rest, verb) => ({ action: 'drop', ...itemAndQty(required(rest, verb, 'item')) }),
  give: (rest, verb) => {
    const match = /^(.+?)\s+to\s+(.+)$/i.exec(required(rest, verb, 'item'));
    if (!match) throw new InvalidActionError(`Say who to give it to: "give <item> to <someone>".`);
    return { action: 'give', ...itemAndQty(match[1]), to: match[2] };
  },
  equip: (rest, verb) => ({ action: 'equip', item: required(rest, verb, 'item') }),
  wield: (rest, verb) => ({ action: 'equip', item: required(rest, verb, 'item') }),
  wear: (rest, verb) => ({ action: 'equip', item: required(rest, verb, 'item') }),
  use: (rest, verb) => ({ action: 'use', item: required(rest, verb, 'item') }),
  eat: (rest, verb) => ({ action: 'use', item: required(rest, verb, 'item') }),
  drink: (rest, verb) => ({ action: 'use', item: required(rest, verb, 'item') }),
  craft: (rest, verb) => ({ action: 'craft', recipe: required(rest, verb, 'recipe') }),
  inventory: () => ({ action: 'inventory' }),
  inv: () => ({ action: 'inventory' }),
  i: () => ({ action: 'inventory' }),
  say: (rest, verb) => ({ action: 'say', text: required(rest, verb, 'text') }),
  buy: (rest, verb) => {
    const match = /^(.+?)\s+from\s+(.+)$/i.exec(required(rest, verb, 'item'));
    return match ? { action: 'buy', item: match[1], from: match[2] } : { action: 'buy', item: rest };
  },
  quest: (rest, verb) => {
    const [op = 'progress', ...words] = rest.split(/\s+/).filter(Boolean);
    const quest = words.join(' ') || undefined;
    if (op === 'log' || op === 'progress')
      return { action: 'quest', op: 'progress', ...(quest ? { quest } : {}) };
    if (op !== 'accept' && op !== 'complete') {
      throw new InvalidActionError(
        `"${verb} ${op}": try "quest accept <quest>", "quest complete <quest>" or "quest log".`,
      );
    }
    return { action: 'quest', op, ...(quest ? { quest } : {}) };
  },
};

/** Parses one typed line into an action; an unknown verb or a missing argument is a 400 `INVALID_ACTION`. */
export function parseCommandLine(line: string): MudAction {
  const text = line.trim();
  // MUD convention: a leading quote is `say`.
  if (text.startsWith("'") || text.startsWith('"')) return VERBS.say(text.slice(1).trim(), 'say');
  const [first = '', ...words] = text.split(/\s+/);
  const verb = first.toLowerCase();
  const parser = Object.hasOwn(VERBS, verb) ? VERBS[verb] : undefined;
  if (!parser)
    throw new InvalidActionError(`Unknown command "${first}". Type "help" for the commands you can use.`);
  return parser(words.join(' '), verb);
}

/** Every verb the command line understands, aliases included (for `help` and client completion). */
export const COMMAND_VERBS = Object.keys(VERBS).sort();
