import { z } from 'zod';
import { MudAction, parseAction, type ActionName } from '../../../rooms/commands/actions';
import { ActionResultSchema, type ActionResult, type WorldService } from '../../mud';
import { ACCESS, ACTS, READ_ONLY, defineTool, type AnyTool, type ToolAnnotations } from '../toolDefinition';

/** One world action offered as a tool: the action, fixed fields (e.g. a quest op) and the texts for a model. */
interface ActionTool {
  name: string;
  action: ActionName;
  fixed?: Record<string, string>;
  title: string;
  description: string;
  /** Descriptions of the input fields. */
  fields?: Record<string, string>;
  annotations: ToolAnnotations;
  /** Input fields not offered (set by `fixed`). */
  omit?: string[];
}

const LOOK_LIKE: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false };
const GIVES_AWAY: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };

/** The world actions as tools (data): each acts as the caller's own character through the action gateway. */
const ACTION_TOOLS: ActionTool[] = [
  {
    name: 'world_look',
    action: 'look',
    title: 'Look around',
    description: 'Describes your room: exits, creatures, people, items on the floor.',
    annotations: LOOK_LIKE,
  },
  {
    name: 'world_move',
    action: 'move',
    title: 'Walk through an exit',
    description:
      'Walks through an exit of your room and describes the new one. Refused in combat (flee first).',
    fields: { direction: 'An exit of your room (see world_look)' },
    annotations: ACTS,
  },
  {
    name: 'world_attack',
    action: 'attack',
    title: 'Attack a creature',
    description:
      'Starts a fight with a creature in your room; combat rounds follow on their own until one side falls or you flee.',
    fields: { target: 'The creature’s name or a word of it, e.g. "rat"' },
    annotations: ACTS,
  },
  {
    name: 'world_flee',
    action: 'flee',
    title: 'Flee from combat',
    description: 'Tries to escape the current fight through a random exit; may fail.',
    annotations: ACTS,
  },
  {
    name: 'world_rest',
    action: 'rest',
    title: 'Rest',
    description:
      'Rests to regain health faster (twice as fast in rooms tagged for resting); any action ends it.',
    annotations: ACTS,
  },
  {
    name: 'world_talk',
    action: 'talk',
    title: 'Talk to a character',
    description:
      'Talks to a non-player character in your room; they answer according to their disposition toward you and may offer quests.',
    fields: { npc: 'The character’s name or a word of it' },
    annotations: LOOK_LIKE,
  },
  {
    name: 'world_take',
    action: 'take',
    title: 'Pick up an item',
    description: 'Takes an item lying in your room.',
    fields: { item: 'The item’s name', qty: 'How many (default all of them)' },
    annotations: ACTS,
  },
  {
    name: 'world_drop',
    action: 'drop',
    title: 'Drop an item',
    description: 'Drops an item you carry in your room.',
    fields: { item: 'The item’s name', qty: 'How many (default 1)' },
    annotations: GIVES_AWAY,
  },
  {
    name: 'world_give',
    action: 'give',
    title: 'Give an item',
    description: 'Gives an item you carry to a player or character in your room.',
    fields: { item: 'The item’s name', to: 'Who receives it', qty: 'How many (default 1)' },
    annotations: GIVES_AWAY,
  },
  {
    name: 'world_equip',
    action: 'equip',
    title: 'Equip an item',
    description: 'Wields or wears an item you carry (weapons add attack, armour defense).',
    fields: { item: 'The item’s name' },
    annotations: ACTS,
  },
  {
    name: 'world_use',
    action: 'use',
    title: 'Use an item',
    description: 'Uses an item you carry, e.g. eats food or applies a bandage; consumables are used up.',
    fields: { item: 'The item’s name' },
    annotations: ACTS,
  },
  {
    name: 'world_craft',
    action: 'craft',
    title: 'Craft an item',
    description:
      'Crafts a recipe from ingredients you carry (some need a station room: forge, workbench, kitchen). See world_recipes.',
    fields: { recipe: 'The recipe’s name, e.g. "bandage"' },
    annotations: ACTS,
  },
  {
    name: 'world_inventory',
    action: 'inventory',
    title: 'Your inventory',
    description: 'Lists what you carry and wear, your health and your coins and gems.',
    annotations: READ_ONLY,
  },
  {
    name: 'world_say',
    action: 'say',
    title: 'Say something',
    description: 'Says a line to everyone in your room.',
    fields: { text: 'What to say (1-280 characters)' },
    annotations: ACTS,
  },
  {
    name: 'world_quest_accept',
    action: 'quest',
    fixed: { op: 'accept' },
    omit: ['op'],
    title: 'Accept a quest',
    description: 'Accepts a quest offered by a character in your room (talk to them first).',
    fields: { quest: 'The quest’s name' },
    annotations: ACTS,
  },
  {
    name: 'world_quest_progress',
    action: 'quest',
    fixed: { op: 'progress' },
    omit: ['op'],
    title: 'Quest progress',
    description: 'Reports your progress on your quests, or on one of them.',
    fields: { quest: 'One quest’s name (default: all of yours)' },
    annotations: READ_ONLY,
  },
  {
    name: 'world_quest_complete',
    action: 'quest',
    fixed: { op: 'complete' },
    omit: ['op'],
    title: 'Complete a quest',
    description: 'Hands in a finished quest to its giver (in your room) and collects the rewards.',
    fields: { quest: 'The quest’s name' },
    annotations: ACTS,
  },
  {
    name: 'world_buy',
    action: 'buy',
    title: 'Buy an item',
    description: 'Buys an item from a merchant in your room with coins.',
    fields: { item: 'The item’s name', from: 'The merchant (default the one in the room)' },
    annotations: ACTS,
  },
  {
    name: 'world_companion_talk',
    action: 'companion',
    fixed: { op: 'talk' },
    omit: ['op', 'presence'],
    title: 'Talk to your companion',
    description: 'Talks to your bonded companion, who answers from your shared history.',
    annotations: LOOK_LIKE,
  },
  {
    name: 'world_companion_presence',
    action: 'companion',
    fixed: { op: 'presence' },
    omit: ['op'],
    title: 'Set your companion’s presence',
    description: 'Sets how present your companion is: Always, On Demand, Subtle, Progressive or Silent.',
    fields: { presence: 'The presence setting' },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
  {
    name: 'world_command',
    action: 'command',
    title: 'Type a MUD command',
    description:
      'Runs a typed command line as a player would type it ("n", "attack rat", "give 2 bread to ann", "help"). Prefer the specific tools; use this for verbs they do not cover.',
    fields: { line: 'The command line (1-300 characters)' },
    annotations: ACTS,
  },
];

/** The input schema of a world action without `action` and the fixed fields, with descriptions on its fields. */
function inputOf(spec: ActionTool): z.ZodObject {
  const option = MudAction.options.find((candidate) => candidate.shape.action.value === spec.action);
  if (!option) throw new Error(`No world action ${spec.action}`);
  const omitted = ['action', ...(spec.omit ?? [])];
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries((option as z.ZodObject).shape)) {
    if (omitted.includes(key)) continue;
    const description = spec.fields?.[key];
    shape[key] = description ? (field as z.ZodType).meta({ description }) : (field as z.ZodType);
  }
  return z.strictObject(shape);
}

/** The events this action caused (the last ones), as text. */
function summariseAction(result: ActionResult): string {
  const text = result.events.map((event) => event.text).join('\n');
  const tail = text.length > 1500 ? `…${text.slice(-1500)}` : text;
  const { player } = result;
  return `${tail}\n[${player.name} in ${player.room}: ${player.status}, health ${player.health}/${player.max_health}]`;
}

/** The world action tools, acting through `world` as the calling user's character. */
export function worldActionTools(world: WorldService): AnyTool[] {
  return ACTION_TOOLS.map((spec) =>
    defineTool({
      name: spec.name,
      title: spec.title,
      description: `${spec.description} Acts as your own character; refusals (e.g. NO_EXIT, IN_COMBAT) change nothing.`,
      input: inputOf(spec),
      output: ActionResultSchema,
      annotations: spec.annotations,
      access: ACCESS.player,
      handler: (input, call) => {
        if (call.caller.kind !== 'user') throw new Error('World tools act as a signed-in user');
        return world.act(call.caller.userId, parseAction({ action: spec.action, ...spec.fixed, ...input }));
      },
      summarise: summariseAction,
    }),
  );
}
