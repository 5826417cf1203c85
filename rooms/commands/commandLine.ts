import type { Direction } from '../content/schemas';
import { InvalidActionError } from '../rules/errors';
import type { MudAction } from './actions';
import { CompanionPresence } from '../content/schemas';

const PRESENCES = CompanionPresence.options;

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

const look: VerbParser = (rest) =>
  rest ? { action: 'examine', target: rest.replace(/^(at|in)\s+/i, '') } : { action: 'look' };
const examine: VerbParser = (rest, verb) => ({ action: 'examine', target: required(rest, verb, 'thing') });
const consider: VerbParser = (rest, verb) => ({
  action: 'consider',
  target: required(rest, verb, 'creature'),
});
const emote: VerbParser = (rest, verb) => ({ action: 'emote', text: required(rest, verb, 'action') });
const simple =
  (action: 'quests' | 'recipes' | 'score' | 'map' | 'who'): VerbParser =>
  () => ({ action });

const VERBS: Record<string, VerbParser> = {
  look,
  l: look,
  examine,
  ex: examine,
  x: examine,
  consider,
  con: consider,
  help: (rest) => (rest ? { action: 'help', topic: rest } : { action: 'help' }),
  quests: simple('quests'),
  journal: simple('quests'),
  recipes: simple('recipes'),
  score: simple('score'),
  stats: simple('score'),
  map: simple('map'),
  tutorial: () => ({ action: 'tutorial' }),
  hint: () => ({ action: 'tutorial' }),
  who: simple('who'),
  emote,
  me: emote,
  whisper: (rest, verb) => {
    const match = /^(\S+)\s+(.+)$/.exec(required(rest, verb, 'player'));
    if (!match) throw new InvalidActionError(`Say what to whisper: "whisper <player> <text>".`);
    return { action: 'whisper', to: match[1], text: match[2] };
  },
  shout: (rest, verb) => ({ action: 'shout', text: required(rest, verb, 'text') }),
  yell: (rest, verb) => ({ action: 'shout', text: required(rest, verb, 'text') }),
  sell: (rest, verb) => {
    const match = /^(.+?)\s+to\s+(.+)$/i.exec(required(rest, verb, 'item'));
    return match
      ? { action: 'sell', ...itemAndQty(match[1]), to: match[2] }
      : { action: 'sell', ...itemAndQty(rest) };
  },
  group: (rest, verb) => {
    const [op = 'list', ...words] = rest.split(/\s+/).filter(Boolean);
    const player = words.join(' ') || undefined;
    if (op !== 'invite' && op !== 'accept' && op !== 'leave' && op !== 'list')
      throw new InvalidActionError(
        `"${verb} ${op}": try "group invite <player>", "group accept" or "group leave".`,
      );
    return { action: 'group', op, ...(player ? { player } : {}) };
  },
  companion: (rest, verb) => {
    const [op = 'talk', ...words] = rest.split(/\s+/).filter(Boolean);
    if (op === 'talk' || op === 'swap' || op === 'decline') return { action: 'companion', op };
    if (op === 'ask' && words.length > 0) return { action: 'companion', op, question: words.join(' ') };
    const presence = PRESENCES.find((p) => p.toLowerCase() === words.join(' ').toLowerCase());
    if (op === 'presence' && presence) return { action: 'companion', op, presence };
    throw new InvalidActionError(
      `"${verb} ${rest}": try "companion talk", "companion ask <question>", "companion presence <${PRESENCES.join('|')}>", "companion swap" or "companion decline".`,
    );
  },
  go: move,
  move,
  ...Object.fromEntries(Object.keys(DIRECTIONS).map((word) => [word, move])),
  attack: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  kill: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  k: (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') }),
  fight: (rest, verb) => ({ action: 'fight', target: required(rest, verb, 'target') }),
  flee: () => ({ action: 'flee' }),
  rest: () => ({ action: 'rest' }),
  ask: (rest, verb) => {
    const line = required(rest, verb, 'npc');
    const match = /^(.+?)\s+about\s+(.+)$/i.exec(line);
    if (match) return { action: 'talk', npc: match[1], topic: match[2] };
    // "ask pip where did we find the crystal?": a question for your companion, named first.
    const [, question = ''] = /^\S+\s+(.+)$/.exec(line) ?? [];
    if (!question)
      throw new InvalidActionError(
        `Say what to ask: "ask <npc> about <topic>" or "ask <companion> <question>".`,
      );
    return { action: 'companion', op: 'ask', question, name: line.split(/\s+/)[0] };
  },
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
  // Answering a riddle is saying the answer where its asker can hear.
  answer: (rest, verb) => ({ action: 'say', text: required(rest, verb, 'text') }),
  buy: (rest, verb) => {
    const match = /^(.+?)\s+from\s+(.+)$/i.exec(required(rest, verb, 'item'));
    return match ? { action: 'buy', item: match[1], from: match[2] } : { action: 'buy', item: rest };
  },
  trade: (rest, verb) => tradeLine(rest, verb),
  market: (rest, verb) => tradeLine(rest, verb),
  quest: (rest) => {
    const [op = 'progress', ...words] = rest.split(/\s+/).filter(Boolean);
    const quest = words.join(' ') || undefined;
    if (op === 'log' || op === 'progress')
      return { action: 'quest', op: 'progress', ...(quest ? { quest } : {}) };
    // "quest first steps": a quest named without an op is one to take.
    if (op !== 'accept' && op !== 'complete') return { action: 'quest', op: 'accept', quest: rest };
    return { action: 'quest', op, ...(quest ? { quest } : {}) };
  },
  // A bare "accept" or "yes" takes the most recent offer; "complete" hands in the quest finished here.
  accept: (rest) => ({ action: 'quest', op: 'accept', ...(rest ? { quest: rest } : {}) }),
  yes: () => ({ action: 'quest', op: 'accept' }),
  complete: (rest) => ({ action: 'quest', op: 'complete', ...(rest ? { quest: rest } : {}) }),
};

const TRADE_USAGE =
  'try "trade list [n] <item> for <price> [hard]", "trade browse [words]", "trade mine", "trade buy <number>" or "trade cancel <number>"';

/** `trade list 2 cloth for 50`, `trade browse rope`, `trade mine`, `trade buy 2`, `trade cancel 1`. */
function tradeLine(rest: string, verb: string): MudAction {
  const [op = '', ...words] = rest.split(/\s+/).filter(Boolean);
  const tail = words.join(' ');
  if (op === 'browse') return { action: 'trade', op, ...(tail ? { query: tail } : {}) };
  if (op === 'mine') return { action: 'trade', op };
  if (op === 'buy' || op === 'cancel')
    return { action: 'trade', op, listing: required(tail, `${verb} ${op}`, 'number') };
  const listed = op === 'list' ? /^(.+?)\s+for\s+(\d{1,10})(?:\s+(soft|hard|coins?))?$/i.exec(tail) : null;
  if (!listed) throw new InvalidActionError(`"${verb} ${rest}": ${TRADE_USAGE}.`);
  const currency = listed[3]?.toLowerCase() === 'hard' ? 'hard' : 'soft';
  return { action: 'trade', op: 'list', ...itemAndQty(listed[1]), price: Number(listed[2]), currency };
}

/** Parses one typed line into an action; an unknown verb or a missing argument is a 400 `INVALID_ACTION`. */
export function parseCommandLine(line: string): MudAction {
  const text = line.trim();
  // MUD convention: a leading quote is `say`, a leading colon is `emote`.
  if (text.startsWith("'") || text.startsWith('"')) return VERBS.say(text.slice(1).trim(), 'say');
  if (text.startsWith(':')) return VERBS.emote(text.slice(1).trim(), 'emote');
  const [first = '', ...words] = text.split(/\s+/);
  const verb = first.toLowerCase();
  const parser = Object.hasOwn(VERBS, verb) ? VERBS[verb] : undefined;
  if (!parser)
    throw new InvalidActionError(`Unknown command "${first}". Type "help" for the commands you can use.`);
  return parser(words.join(' '), verb);
}

/** Every verb the command line understands, aliases included (for `help` and client completion). */
export const COMMAND_VERBS = Object.keys(VERBS).sort();
