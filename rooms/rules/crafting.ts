import type { RecipeDef } from '../content/world';
import type { PlayerState } from '../state/PlayerState';
import { type SimContext, matchByName, requireAlive, requirePlayer } from './context';
import { reject } from './errors';
import { addItem, countOf, removeItem } from './inventory';
import { improve } from './skills';

/**
 * Crafting. `craft` checks the station and every ingredient first, then consumes the ingredients and adds
 * the product in one synchronous step, so a craft either happens completely or changes nothing.
 */

/** Ingredients the player lacks for `recipe` (empty when they can craft it). */
export function missingIngredients(
  player: PlayerState,
  recipe: RecipeDef,
): Array<{ item: string; need: number; have: number }> {
  return recipe.ingredients
    .map((ing) => ({ item: ing.item, need: ing.qty, have: countOf(player, ing.item) }))
    .filter((m) => m.have < m.need);
}

/** `craft`: makes a recipe's product from the player's ingredients. */
export function craft(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  if (player.status === 'fighting') throw reject('IN_COMBAT', 'You cannot craft in the middle of a fight.');
  const recipe = matchByName([...ctx.world.recipes.values()], query, (r) => [r.ref, r.id, r.name]);
  if (!recipe) throw reject('NO_SUCH_RECIPE', `You know no recipe called "${query}".`);
  const room = ctx.world.rooms.get(player.roomRef)!;
  if (recipe.requiresTag && !room.tags.includes(recipe.requiresTag)) {
    throw reject('STATION_REQUIRED', `${recipe.name} needs a ${recipe.requiresTag}.`);
  }
  const missing = missingIngredients(player, recipe);
  if (missing.length > 0) {
    const list = missing
      .map((m) => `${m.need - m.have} more ${ctx.world.items.get(m.item)!.name}`)
      .join(', ');
    throw reject('MISSING_INGREDIENTS', `You need ${list}.`);
  }
  for (const ing of recipe.ingredients) removeItem(player, ing.item, ing.qty);
  addItem(player, recipe.produces.item, recipe.produces.qty);
  improve(ctx, player, 'crafting');
  const product = ctx.world.items.get(recipe.produces.item)!;
  ctx.emit({
    type: 'craft.done',
    actor: { name: player.name, userId },
    item: product.name,
    qty: recipe.produces.qty,
    to: { roomRef: player.roomRef },
  });
}
