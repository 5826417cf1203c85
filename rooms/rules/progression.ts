import type { World } from '../content/world';
import type { PlayerState } from '../state/PlayerState';
import type { SimContext } from './context';
import { chaosAttackBonus, laborHealthBonus } from './skills';

/** Experience, levels and the combat numbers that follow from level and equipment. */

/** Health a level-1 character starts with; each level adds `HEALTH_PER_LEVEL`. */
export const BASE_HEALTH = 30;
export const HEALTH_PER_LEVEL = 5;

/** Level for a total xp: 1 + floor(sqrt(xp / 10)), so 10 xp → 2, 40 → 3, 90 → 4. */
export function levelForXp(xp: number): number {
  return 1 + Math.floor(Math.sqrt(xp / 10));
}

/** Max health at `level`. */
export function maxHealthFor(level: number): number {
  return BASE_HEALTH + HEALTH_PER_LEVEL * (level - 1);
}

/** Adds xp; on level-up raises max health and heals fully. */
export function gainXp(ctx: SimContext, player: PlayerState, amount: number): void {
  if (amount <= 0) return;
  player.xp += amount;
  const level = levelForXp(player.xp);
  const levelled = level > player.level;
  if (levelled) {
    player.level = level;
    player.maxHealth = maxHealthFor(level) + laborHealthBonus(player);
    player.health = player.maxHealth;
  }
  ctx.emit({
    type: 'xp.gained',
    actor: { name: player.name, userId: player.userId },
    amount,
    level,
    levelled,
    to: { userId: player.userId },
  });
}

/** Attack: 1 + level + equipped weapon's attack + the Chaos path's bonus. */
export function attackOf(world: World, player: PlayerState): number {
  const weapon = player.equipment.get('weapon');
  return 1 + player.level + (weapon ? (world.items.get(weapon)?.attack ?? 0) : 0) + chaosAttackBonus(player);
}

/** Defense: sum of equipped items' defense. */
export function defenseOf(world: World, player: PlayerState): number {
  let defense = 0;
  player.equipment.forEach((ref) => {
    defense += world.items.get(ref)?.defense ?? 0;
  });
  return defense;
}
