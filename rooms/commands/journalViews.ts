import type { SimContext } from '../rules/context';
import { requirePlayer } from '../rules/context';
import { missingIngredients } from '../rules/crafting';
import { objectiveViews } from '../rules/quests/quests';
import { PATHS, type ForgePath, abilitiesOf, pathLevel } from '../rules/skills';
import { attackOf, defenseOf, levelForXp } from '../rules/progression';

/** The character sheet commands: `quests` (the log), `recipes` and `score`. */

/** `quests`: every active and completed quest with its description and objectives. */
export function questLog(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const journal = ctx.journal(userId).quests;
  const quests = [...journal.entries()].map(([ref, progress]) => {
    const quest = ctx.world.quests.get(ref)!;
    return {
      name: quest.name,
      description: quest.description,
      status: progress.status,
      giver: ctx.world.npcs.get(quest.giver)?.name ?? '',
      objectives: progress.status === 'active' ? objectiveViews(ctx.world, player, quest, progress) : [],
    };
  });
  quests.sort((a, b) =>
    a.status === b.status ? a.name.localeCompare(b.name) : a.status === 'active' ? -1 : 1,
  );
  ctx.emit({ type: 'quest.log', quests, to: { userId } });
}

/** `recipes`: every recipe of the world with what it needs, what the player has and where to make it. */
export function recipeBook(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const recipes = [...ctx.world.recipes.values()].map((recipe) => {
    const missing = new Map(missingIngredients(player, recipe).map((m) => [m.item, m.have]));
    return {
      name: recipe.name,
      produces: ctx.world.items.get(recipe.produces.item)!.name,
      station: recipe.requiresTag ?? '',
      ingredients: recipe.ingredients.map((ing) => ({
        name: ctx.world.items.get(ing.item)!.name,
        need: ing.qty,
        have: missing.get(ing.item) ?? ing.qty,
      })),
      ready: missing.size === 0,
    };
  });
  recipes.sort((a, b) => Number(b.ready) - Number(a.ready) || a.name.localeCompare(b.name));
  ctx.emit({ type: 'recipes', recipes, to: { userId } });
}

/** `score`/`stats`: level, experience to the next level, health, coins, combat numbers, skills and paths. */
export function score(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  let nextLevelXp = player.xp;
  while (levelForXp(nextLevelXp) <= player.level) nextLevelXp += 1;
  const skills: Record<string, number> = {};
  player.skills.forEach((points, skill) => (skills[skill] = points));
  const paths = Object.fromEntries(
    (Object.keys(PATHS) as ForgePath[]).map((path) => [path, pathLevel(player, path)]),
  );
  ctx.emit({
    type: 'score',
    name: player.name,
    level: player.level,
    xp: player.xp,
    nextLevelXp,
    health: player.health,
    maxHealth: player.maxHealth,
    soft: player.soft,
    attack: attackOf(ctx.world, player),
    defense: defenseOf(ctx.world, player),
    skills,
    paths,
    abilities: abilitiesOf(player),
    companion: player.companion.ref ? `${player.companion.name} (bond ${player.companion.bond})` : '',
    to: { userId },
  });
}
