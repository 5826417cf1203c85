import { z } from 'zod';
import { CompanionPresence, Direction } from '../content/schemas';
import { formatPath } from '../content/contentError';
import type { SimContext } from '../rules/context';
import { attack, flee } from '../rules/combat';
import { commandCompanion } from '../rules/companions';
import { craft } from '../rules/crafting';
import { talk } from './talk';
import { InvalidActionError } from '../rules/errors';
import { drop, equip, give, inventory, take, use } from '../rules/items';
import { buy, sell } from '../rules/merchants';
import { trade } from '../rules/marketTrades';
import { consider, examine, help } from './info';
import { questLog, recipeBook, score } from './journalViews';
import { drawMap } from '../rules/mapView';
import { emote, say, shout, who, whisper } from './social';
import { commandGroup } from '../rules/groups';
import { type Handoff, look, move } from '../rules/movement';
import { reportQuests } from '../rules/quests/quests';
import { acceptOffer, completeHere } from '../rules/quests/questOffers';
import { rest } from '../rules/vitals';
import { tutorial } from '../rules/quests/tutorial';
import { parseCommandLine } from './commandLine';

const name = z.string().trim().min(1).max(64);
const qty = z.number().int().min(1).max(999).optional();
const text = z.string().trim().min(1).max(280);

/**
 * Every action a player can take, as one zod discriminated union on `action`. The same shapes arrive as
 * Colyseus messages (type = action name, payload = the other fields), as `POST /mud/action` bodies and as
 * plain-WebSocket frames.
 */
export const MudAction = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('look') }),
  z.strictObject({ action: z.literal('move'), direction: Direction }),
  z.strictObject({ action: z.literal('attack'), target: name }),
  z.strictObject({ action: z.literal('fight'), target: name }),
  z.strictObject({ action: z.literal('flee') }),
  z.strictObject({ action: z.literal('rest') }),
  z.strictObject({ action: z.literal('talk'), npc: name, topic: name.optional() }),
  z.strictObject({ action: z.literal('take'), item: name, qty }),
  z.strictObject({ action: z.literal('drop'), item: name, qty }),
  z.strictObject({ action: z.literal('give'), item: name, to: name, qty }),
  z.strictObject({ action: z.literal('equip'), item: name }),
  z.strictObject({ action: z.literal('use'), item: name }),
  z.strictObject({ action: z.literal('craft'), recipe: name }),
  z.strictObject({ action: z.literal('inventory') }),
  z.strictObject({ action: z.literal('say'), text }),
  z.strictObject({
    action: z.literal('quest'),
    op: z.enum(['accept', 'progress', 'complete']),
    quest: name.optional(),
  }),
  z.strictObject({ action: z.literal('buy'), item: name, from: name.optional() }),
  z.strictObject({ action: z.literal('sell'), item: name, qty, to: name.optional() }),
  z.strictObject({ action: z.literal('help'), topic: name.optional() }),
  z.strictObject({ action: z.literal('tutorial') }),
  z.strictObject({ action: z.literal('examine'), target: name }),
  z.strictObject({ action: z.literal('consider'), target: name }),
  z.strictObject({ action: z.literal('quests') }),
  z.strictObject({ action: z.literal('recipes') }),
  z.strictObject({ action: z.literal('score') }),
  z.strictObject({ action: z.literal('map') }),
  z.strictObject({ action: z.literal('who') }),
  z.strictObject({ action: z.literal('emote'), text }),
  z.strictObject({ action: z.literal('whisper'), to: name, text }),
  z.strictObject({ action: z.literal('shout'), text }),
  z.strictObject({
    action: z.literal('group'),
    op: z.enum(['invite', 'accept', 'leave', 'list']),
    player: name.optional(),
  }),
  z.strictObject({
    action: z.literal('companion'),
    op: z.enum(['talk', 'presence', 'swap', 'decline', 'ask']),
    presence: CompanionPresence.optional(),
    /** With `ask`: what you ask your companion ("where did we find the crystal?"). */
    question: text.optional(),
    /** With `ask`: the companion's name as the player typed it ("ask pip ..."); must be their companion. */
    name: name.optional(),
  }),
  z.strictObject({
    action: z.literal('trade'),
    op: z.enum(['list', 'browse', 'mine', 'buy', 'cancel']),
    item: name.optional(),
    qty,
    price: z.number().int().min(1).max(1_000_000_000).optional(),
    currency: z.enum(['soft', 'hard']).optional(),
    query: text.optional(),
    listing: z.string().trim().min(1).max(24).optional(),
  }),
  z.strictObject({ action: z.literal('command'), line: z.string().trim().min(1).max(300) }),
]);
export type MudAction = z.infer<typeof MudAction>;
export type ActionName = MudAction['action'];

/** Every action name, in the order of the union (also the Colyseus message types an area room accepts). */
export const ACTION_NAMES = MudAction.options.map((option) => option.shape.action.value) as ActionName[];

/** Parses untrusted input into an action, or throws a 400 `InvalidActionError` listing the failing fields. */
export function parseAction(input: unknown): MudAction {
  const parsed = MudAction.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    path: formatPath(issue.path) || 'action',
    message: issue.message,
  }));
  throw new InvalidActionError(
    `Invalid action: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
    errors,
  );
}

/** A message named after an action (`move`, payload `{ direction }`) as the input `parseAction` reads. */
export function namedAction(name: ActionName, payload: unknown): unknown {
  const fields = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? payload : {};
  return { ...fields, action: name };
}

/** What an action returns: the handoff when it took the player into another area. */
export type ActionResult = Handoff | void;

/** What the room learns while an action runs: the action that ran (a typed line runs the action it names). */
export interface ActionTurn {
  ran?: MudAction;
}

/** Runs one kind of action; an action that waits on the platform (`trade`) returns a promise. */
type Handler<A extends ActionName> = (
  ctx: SimContext,
  userId: string,
  action: Extract<MudAction, { action: A }>,
  turn: ActionTurn,
) => ActionResult | Promise<ActionResult>;

/**
 * One named handler per action: the room and the gateway dispatch through this map, never a switch, and nothing
 * runs before it (a typed `command` line and a `trade` are entries like the others).
 */
export const ACTION_HANDLERS: { [A in ActionName]: Handler<A> } = {
  look: (ctx, userId) => look(ctx, userId),
  move: (ctx, userId, a) => move(ctx, userId, a.direction),
  attack: (ctx, userId, a) => attack(ctx, userId, a.target),
  fight: (ctx, userId, a) => attack(ctx, userId, a.target),
  flee: (ctx, userId) => flee(ctx, userId),
  rest: (ctx, userId) => rest(ctx, userId),
  talk: (ctx, userId, a) => talk(ctx, userId, a.npc, a.topic),
  take: (ctx, userId, a) => take(ctx, userId, a.item, a.qty),
  drop: (ctx, userId, a) => drop(ctx, userId, a.item, a.qty),
  give: (ctx, userId, a) => give(ctx, userId, a.item, a.to, a.qty),
  equip: (ctx, userId, a) => equip(ctx, userId, a.item),
  use: (ctx, userId, a) => use(ctx, userId, a.item),
  craft: (ctx, userId, a) => craft(ctx, userId, a.recipe),
  inventory: (ctx, userId) => inventory(ctx, userId),
  say: (ctx, userId, a) => say(ctx, userId, a.text),
  quest: (ctx, userId, a) => onQuest(ctx, userId, a.op, a.quest),
  buy: (ctx, userId, a) => buy(ctx, userId, a.item, a.from),
  sell: (ctx, userId, a) => sell(ctx, userId, a.item, a.qty, a.to),
  help: (ctx, userId, a) => help(ctx, userId, a.topic),
  tutorial: (ctx, userId) => tutorial(ctx, userId),
  examine: (ctx, userId, a) => examine(ctx, userId, a.target),
  consider: (ctx, userId, a) => consider(ctx, userId, a.target),
  quests: (ctx, userId) => questLog(ctx, userId),
  recipes: (ctx, userId) => recipeBook(ctx, userId),
  score: (ctx, userId) => score(ctx, userId),
  map: (ctx, userId) => drawMap(ctx, userId),
  who: (ctx, userId) => who(ctx, userId),
  emote: (ctx, userId, a) => emote(ctx, userId, a.text),
  whisper: (ctx, userId, a) => whisper(ctx, userId, a.to, a.text),
  shout: (ctx, userId, a) => shout(ctx, userId, a.text),
  group: (ctx, userId, a) => commandGroup(ctx, userId, a.op, a.player),
  companion: (ctx, userId, a) => commandCompanion(ctx, userId, a.op, a),
  // Through the room's broker desk to the platform's marketplace (awaited); closed without one.
  trade: (ctx, userId, a) => trade(ctx, userId, a),
  // A typed line: parsed (here, once) into one of the actions above and run as that action.
  command: (ctx, userId, a, turn) => runAction(ctx, userId, parseCommandLine(a.line), turn),
};

/**
 * Runs an already-parsed action; `turn.ran` tells the caller which action ran. Synchronous unless the action waits
 * on the platform (`trade`): then it returns a promise. Throws (or rejects with) an `AppError` when the world refuses
 * the action (nothing changed).
 */
export function runAction(
  ctx: SimContext,
  userId: string,
  action: MudAction,
  turn: ActionTurn = {},
): ActionResult | Promise<ActionResult> {
  turn.ran = action;
  const handler = ACTION_HANDLERS[action.action] as Handler<ActionName>;
  return handler(ctx, userId, action, turn);
}

function onQuest(
  ctx: SimContext,
  userId: string,
  op: 'accept' | 'progress' | 'complete',
  quest?: string,
): void {
  if (op === 'progress') return reportQuests(ctx, userId, quest);
  // Without a name: the most recent offer, or the finished quest whose giver is here.
  if (op === 'accept') acceptOffer(ctx, userId, quest);
  else completeHere(ctx, userId, quest);
}
