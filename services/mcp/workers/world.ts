import { z } from 'zod';
import { NotFoundError } from '../../../platform/errors';
import type { World } from '../../../rooms/content/world';
import { SpawnStatusSchema, type WorldService } from '../../mud';
import { ACCESS, READ_ONLY, defineTool, type ResourceDefinition, type Worker } from '../toolDefinition';
import { worldActionTools } from './worldActions';

const NoInput = z.strictObject({});

const AreasOutput = z.object({
  world: z.string(),
  start_room: z.string(),
  areas: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      rooms: z.array(
        z.object({ ref: z.string(), name: z.string(), exits: z.record(z.string(), z.string()) }),
      ),
    }),
  ),
});

const RecipesOutput = z.object({
  recipes: z.array(
    z.object({
      ref: z.string(),
      name: z.string(),
      ingredients: z.array(z.object({ item: z.string(), qty: z.number().int() })),
      produces: z.object({ item: z.string(), qty: z.number().int() }),
      station: z.string().nullable().meta({ description: 'Room tag the crafter must stand in, if any' }),
    }),
  ),
});

const QuestsOutput = z.object({
  quests: z.array(
    z.object({
      ref: z.string(),
      name: z.string(),
      description: z.string(),
      giver: z.string(),
      objectives: z.array(z.string()),
      requires: z.array(z.string()),
    }),
  ),
});

/** The areas of the world with their rooms and exits (static world data). */
function areasOf(world: World): z.input<typeof AreasOutput> {
  return {
    world: world.name,
    start_room: world.startRoom,
    areas: [...world.areas.values()].map((area) => ({
      id: area.id,
      name: area.name,
      description: area.description,
      rooms: area.roomRefs.map((ref) => {
        const room = world.rooms.get(ref);
        return { ref, name: room?.name ?? ref, exits: { ...(room?.exits ?? {}) } as Record<string, string> };
      }),
    })),
  };
}

const nameOf = (world: World, ref: string) =>
  world.items.get(ref)?.name ??
  world.creatures.get(ref)?.name ??
  world.npcs.get(ref)?.name ??
  world.rooms.get(ref)?.name ??
  ref;

/** An area as markdown: its description and every room with its description and exits. */
function areaMarkdown(world: World, areaId: string): string {
  const area = world.areas.get(areaId);
  if (!area) throw new NotFoundError(`No area ${areaId}`);
  const rooms = area.roomRefs.map((ref) => {
    const room = world.rooms.get(ref);
    const exits = Object.entries(room?.exits ?? {}).map(([direction, to]) => `${direction} → ${to}`);
    return `## ${room?.name ?? ref} (\`${ref}\`)\n\n${room?.description ?? ''}\n\nExits: ${exits.join(', ') || 'none'}`;
  });
  return `# ${area.name}\n\n${area.description}\n\n${rooms.join('\n\n')}\n`;
}

/** The world worker: the player's actions, spawn status, and the world's static data (areas, recipes, quests). */
export function worldWorker(world: WorldService): Worker {
  const data = world.world;
  const areaResource: ResourceDefinition = {
    uri: 'forge://world/areas/{area_id}',
    name: 'world-area',
    title: 'A world area',
    description: 'An area of the MUD world: its description and every room with its exits (markdown).',
    mimeType: 'text/markdown',
    access: ACCESS.anyone,
    list: () =>
      [...data.areas.values()].map((area) => ({
        uri: `forge://world/areas/${area.id}`,
        name: `world-area-${area.id}`,
        title: area.name,
      })),
    read: (variables) => areaMarkdown(data, variables.area_id ?? ''),
  };
  return {
    name: 'world',
    description:
      'The text MUD world: act as your character (look, move, fight, trade, craft, quest) and read its map.',
    stores: ['mongo'],
    probe: () =>
      world.reachable
        ? { state: 'up' }
        : { state: 'down', reason: 'no game process reachable (no game role here and no REDIS_URL)' },
    tools: [
      ...worldActionTools(world),
      defineTool({
        name: 'world_spawn_status',
        title: 'Creature spawns per area',
        description:
          'Live and pending creature spawns per area and spawn point, and whether each area room is running.',
        input: NoInput,
        output: SpawnStatusSchema,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        handler: () => world.spawnStatus(),
        summarise: ({ areas }) =>
          areas.map((area) => `${area.name}: ${area.live} live, ${area.pending} pending`).join('\n'),
      }),
      defineTool({
        name: 'world_areas',
        title: 'Map of the world',
        description: 'Every area with its rooms and their exits: plan routes before moving.',
        input: NoInput,
        output: AreasOutput,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        whileDown: true,
        handler: async () => areasOf(data),
        summarise: (map) =>
          map.areas.map((area) => `${area.name} (${area.id}): ${area.rooms.length} rooms`).join('\n'),
      }),
      defineTool({
        name: 'world_recipes',
        title: 'Crafting recipes',
        description:
          'Every crafting recipe: ingredients, product and the station room it needs (for world_craft).',
        input: NoInput,
        output: RecipesOutput,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        whileDown: true,
        handler: async () => ({
          recipes: [...data.recipes.values()].map((recipe) => ({
            ref: recipe.ref,
            name: recipe.name,
            ingredients: recipe.ingredients.map((entry) => ({
              item: nameOf(data, entry.item),
              qty: entry.qty,
            })),
            produces: { item: nameOf(data, recipe.produces.item), qty: recipe.produces.qty },
            station: recipe.requiresTag ?? null,
          })),
        }),
        summarise: ({ recipes }) => recipes.map((recipe) => recipe.name).join(', '),
      }),
      defineTool({
        name: 'world_quests',
        title: 'Quest catalogue',
        description: 'Every quest: who gives it, its objectives and the quests it requires first.',
        input: NoInput,
        output: QuestsOutput,
        annotations: READ_ONLY,
        access: ACCESS.anyone,
        whileDown: true,
        handler: async () => ({
          quests: [...data.quests.values()].map((quest) => ({
            ref: quest.ref,
            name: quest.name,
            description: quest.description,
            giver: nameOf(data, quest.giver),
            objectives: quest.objectives.map((objective) =>
              objective.kind === 'visit'
                ? `visit ${nameOf(data, objective.room)}`
                : objective.kind === 'talk'
                  ? `talk to ${nameOf(data, objective.npc)}`
                  : objective.kind === 'kill'
                    ? `kill ${objective.count} ${nameOf(data, objective.creature)}`
                    : objective.kind === 'escort'
                      ? `escort ${nameOf(data, objective.npc)} to ${nameOf(data, objective.to)}`
                      : objective.kind === 'riddle'
                        ? `answer ${nameOf(data, objective.npc)}'s riddle`
                        : `collect ${objective.count} ${nameOf(data, objective.item)}`,
            ),
            requires: quest.requires.map((ref) => data.quests.get(ref)?.name ?? ref),
          })),
        }),
        summarise: ({ quests }) => quests.map((quest) => `${quest.name} (from ${quest.giver})`).join('\n'),
      }),
    ],
    resources: [areaResource],
    prompts: [
      {
        name: 'explore_world',
        title: 'Explore the world',
        description: 'Play your character toward a goal, reading the map first and reporting what happened.',
        arguments: [{ name: 'goal', description: 'What to achieve, e.g. "reach level 2"', required: false }],
        access: ACCESS.player,
        render: ({ goal }) =>
          `You control my character in the Forge MUD. Goal: ${goal?.trim() || 'explore and report what you find'}. ` +
          'Start with world_look and world_areas; move with world_move, fight with world_attack (world_flee when ' +
          'health is low, world_rest to recover). After each step, say in one line what changed. Stop when the ' +
          'goal is reached or a tool refuses the same thing twice, and summarise.',
      },
    ],
  };
}
