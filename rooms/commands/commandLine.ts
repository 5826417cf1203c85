import { InvalidActionError } from '../rules/errors';
import type { MudAction } from './actions';
import { COMBAT_VERBS } from './combatVerbs';
import { INFO_VERBS } from './infoVerbs';
import { ITEM_VERBS } from './itemVerbs';
import type { VerbTable } from './lineWords';
import { MOVEMENT_VERBS } from './movementVerbs';
import { QUEST_VERBS } from './questVerbs';
import { SOCIAL_VERBS } from './socialVerbs';
import { TALK_VERBS } from './talkVerbs';
import { TRADE_VERBS } from './tradeVerbs';

/**
 * The MUD command line: turns what a player types (`n`, `attack rat`, `say hello all`, `give 2 bread to ann`) into
 * one structured action. Clients that show a text prompt (the web client, a terminal, a chat bridge) send it as the
 * `command` action `{ action: "command", line }`; the structured actions stay the protocol for programs.
 *
 * Verbs are tables, one per verb family (`*Verbs.ts`: verb and its aliases → a parser of the rest of the line), so a
 * new action adds a row to its family.
 */
const VERBS = merged([
  MOVEMENT_VERBS,
  COMBAT_VERBS,
  ITEM_VERBS,
  TRADE_VERBS,
  SOCIAL_VERBS,
  TALK_VERBS,
  QUEST_VERBS,
  INFO_VERBS,
]);

/** One table of every family's verbs; a verb claimed by two families is a mistake caught at start-up. */
function merged(tables: VerbTable[]): VerbTable {
  const all: VerbTable = {};
  for (const table of tables) {
    for (const [verb, parser] of Object.entries(table)) {
      if (Object.hasOwn(all, verb)) throw new Error(`The verb "${verb}" belongs to two verb families`);
      all[verb] = parser;
    }
  }
  return all;
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
