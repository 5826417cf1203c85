import { difficulty } from '../commands/info';
import { levelForXp } from '../rules/progression';
import { obtainableItems, reachableRooms } from './reachability';
import type { QuestDef, World } from './world';

/** One quest in the balance report. */
export interface QuestBalance {
  ref: string;
  name: string;
  xp: number;
  soft: number;
  /** Level of a character that finished exactly the quest's prerequisites (from a fresh start). */
  offeredAt: number;
  /** Highest level of a creature the quest asks to fight (kills, or loot only creatures drop). */
  hardestCreature: number;
}

/** Where a recipe ingredient comes from. */
export interface IngredientSources {
  recipe: string;
  item: string;
  sources: string[];
}

/** The world's balance: quests, creature difficulty per player level, recipe inputs and where they come from. */
export interface BalanceReport {
  counts: Record<string, number>;
  quests: QuestBalance[];
  creatures: Array<{ ref: string; name: string; level: number; xp: number; verdicts: string[] }>;
  ingredients: IngredientSources[];
  /** Invariants that fail (empty when the world is balanced). */
  problems: string[];
}

/** How much higher than the level a quest is offered at its hardest creature may be. */
export const QUEST_LEVEL_SLACK = 2;

/** Computes the balance report of a loaded world. */
export function balanceReport(world: World): BalanceReport {
  const reachable = reachableRooms(world);
  const obtainable = obtainableItems(world, reachable);
  const sources = sourceIndex(world);
  const quests = [...world.quests.values()].map((quest) => questBalance(world, quest, sources));
  const creatures = [...world.creatures.values()]
    .sort((a, b) => a.level - b.level || a.name.localeCompare(b.name))
    .map((c) => ({
      ref: c.ref,
      name: c.name,
      level: c.level,
      xp: c.xp,
      verdicts: [1, 2, 3, 4, 5, 6].map((level) => difficulty(level, c.level)),
    }));
  const ingredients = [...world.recipes.values()].flatMap((recipe) =>
    recipe.ingredients.map((ing) => ({
      recipe: recipe.ref,
      item: ing.item,
      sources: sources.get(ing.item) ?? [],
    })),
  );
  const problems = [
    ...ingredients
      .filter((i) => !obtainable.has(i.item))
      .map((i) => `recipe ${i.recipe}: ingredient ${i.item} cannot be obtained`),
    ...quests
      .filter((q) => q.hardestCreature > q.offeredAt + QUEST_LEVEL_SLACK)
      .map(
        (q) => `quest ${q.ref}: offered at level ${q.offeredAt} but needs a level-${q.hardestCreature} fight`,
      ),
  ];
  const counts = {
    areas: world.areas.size,
    rooms: world.rooms.size,
    creatures: world.creatures.size,
    items: world.items.size,
    recipes: world.recipes.size,
    quests: world.quests.size,
    npcs: world.npcs.size,
    companions: world.companions.size,
  };
  return { counts, quests, creatures, ingredients, problems };
}

/** item ref → where it can be obtained ("floor <room>", "loot <creature>", "sold by <npc>", ...). */
function sourceIndex(world: World): Map<string, string[]> {
  const index = new Map<string, string[]>();
  const add = (item: string, source: string) => index.set(item, [...(index.get(item) ?? []), source]);
  const spawned = new Set<string>();
  for (const room of world.rooms.values()) {
    room.items.forEach((entry) => add(entry.item, `floor ${room.ref}`));
    room.spawns.forEach((s) => spawned.add(s.creature));
  }
  for (const ref of spawned) world.creatures.get(ref)!.loot.forEach((l) => add(l.item, `loot ${ref}`));
  for (const npc of world.npcs.values()) npc.sells.forEach((s) => add(s.item, `sold by ${npc.ref}`));
  for (const recipe of world.recipes.values()) add(recipe.produces.item, `recipe ${recipe.ref}`);
  for (const quest of world.quests.values())
    quest.rewards.items.forEach((r) => add(r.item, `reward ${quest.ref}`));
  return index;
}

function questBalance(world: World, quest: QuestDef, sources: Map<string, string[]>): QuestBalance {
  const prerequisiteXp = prerequisites(world, quest).reduce((sum, q) => sum + q.rewards.xp, 0);
  const fights = quest.objectives.flatMap((objective) => {
    if (objective.kind === 'kill') return [world.creatures.get(objective.creature)!.level];
    if (objective.kind !== 'collect') return [];
    const from = sources.get(objective.item) ?? [];
    if (from.some((s) => !s.startsWith('loot '))) return [];
    return from.map((s) => world.creatures.get(s.slice('loot '.length))!.level);
  });
  return {
    ref: quest.ref,
    name: quest.name,
    xp: quest.rewards.xp,
    soft: quest.rewards.soft,
    offeredAt: levelForXp(prerequisiteXp),
    hardestCreature: fights.length ? Math.max(...fights) : 0,
  };
}

/** Every quest that must be completed before `quest` (transitively), once each. */
function prerequisites(world: World, quest: QuestDef): QuestDef[] {
  const out = new Map<string, QuestDef>();
  const stack = [...quest.requires];
  while (stack.length > 0) {
    const ref = stack.pop()!;
    const def = world.quests.get(ref);
    if (!def || out.has(ref)) continue;
    out.set(ref, def);
    stack.push(...def.requires);
  }
  return [...out.values()];
}

/** The report as text (what `npm run world:report` prints). */
export function formatBalanceReport(report: BalanceReport): string {
  const lines = [
    `World: ${Object.entries(report.counts)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
    '',
    'Quests (xp, coins, offered at level, hardest fight level):',
    ...report.quests.map(
      (q) =>
        `  ${q.name.padEnd(32)} ${String(q.xp).padStart(4)} xp ${String(q.soft).padStart(4)} coins  L${q.offeredAt}  fight L${q.hardestCreature}`,
    ),
    '',
    'Creatures (level, xp; difficulty for a player of level 1..6):',
    ...report.creatures.map(
      (c) => `  ${c.name.padEnd(24)} L${c.level} ${String(c.xp).padStart(4)} xp  ${c.verdicts.join(' | ')}`,
    ),
    '',
    'Recipe inputs and where they come from:',
    ...report.ingredients.map((i) => `  ${i.recipe} ← ${i.item}: ${i.sources.join('; ') || 'NOWHERE'}`),
    '',
    report.problems.length
      ? `Problems:\n${report.problems.map((p) => `  ${p}`).join('\n')}`
      : 'Invariants hold.',
  ];
  return lines.join('\n');
}
