import type { PlayerState } from '../state/PlayerState';
import type { SimContext } from './context';

/**
 * Skills and the five forge paths. Skills rise with use (one point per use): combat (kills), crafting
 * (crafts), gathering (taking resources), trading (buying and selling) and lore (talking with NPCs,
 * completing quests). Each skill feeds one forge path of the platform, so the game and the on-chain forge
 * tell one story: Chaos ← combat, Craft ← crafting, Labor ← gathering, Trade ← trading, Wisdom ← lore. A
 * path's level unlocks abilities (`PATH_ABILITIES`).
 */

export const SKILLS = ['combat', 'crafting', 'gathering', 'trading', 'lore'] as const;
export type Skill = (typeof SKILLS)[number];

export const PATHS = {
  Chaos: 'combat',
  Craft: 'crafting',
  Labor: 'gathering',
  Trade: 'trading',
  Wisdom: 'lore',
} as const;
export type ForgePath = keyof typeof PATHS;

/** Path level for skill points: 0 below 5, then 1 + floor(sqrt(points / 5)) − 1 … i.e. 5 → 1, 20 → 2, 45 → 3, 80 → 4. */
export function pathLevelFor(points: number): number {
  return Math.floor(Math.sqrt(points / 5));
}

/** The player's level on `path`. */
export function pathLevel(player: PlayerState, path: ForgePath): number {
  return pathLevelFor(player.skills.get(PATHS[path]) ?? 0);
}

/** What each path level gives (the first level at which each ability opens). */
export const PATH_ABILITIES: Record<ForgePath, Array<{ level: number; ability: string }>> = {
  Chaos: [
    { level: 1, ability: 'Battle fury: +1 attack' },
    { level: 3, ability: 'Red tide: +2 attack' },
  ],
  Craft: [{ level: 2, ability: 'Sure hands: crafting at a station yields one extra of stackable goods' }],
  Labor: [{ level: 1, ability: 'Strong back: +5 max health' }],
  Trade: [
    { level: 1, ability: 'Haggler: 10% off purchases' },
    { level: 3, ability: 'Merchant prince: 20% off purchases' },
  ],
  Wisdom: [{ level: 2, ability: 'Old lore: consider shows a creature’s attack and defense' }],
};

/** Abilities the player has unlocked. */
export function abilitiesOf(player: PlayerState): string[] {
  return (Object.keys(PATH_ABILITIES) as ForgePath[]).flatMap((path) =>
    PATH_ABILITIES[path].filter((a) => pathLevel(player, path) >= a.level).map((a) => a.ability),
  );
}

/** Extra attack from the Chaos path. */
export function chaosAttackBonus(player: PlayerState): number {
  const level = pathLevel(player, 'Chaos');
  return level >= 3 ? 2 : level >= 1 ? 1 : 0;
}

/** The price after the Trade path's discount. */
export function tradePrice(player: PlayerState, price: number): number {
  const level = pathLevel(player, 'Trade');
  const off = level >= 3 ? 0.2 : level >= 1 ? 0.1 : 0;
  return Math.max(1, Math.round(price * (1 - off)));
}

/** Extra max health from the Labor path. */
export function laborHealthBonus(player: PlayerState): number {
  return pathLevel(player, 'Labor') >= 1 ? 5 : 0;
}

/** One use of a skill: +1 point; a new path level is announced. */
export function improve(ctx: SimContext, player: PlayerState, skill: Skill): void {
  const path = (Object.keys(PATHS) as ForgePath[]).find((p) => PATHS[p] === skill)!;
  const before = pathLevel(player, path);
  player.skills.set(skill, (player.skills.get(skill) ?? 0) + 1);
  const after = pathLevel(player, path);
  if (after > before) {
    if (path === 'Labor') player.maxHealth += laborHealthBonus(player) - (before >= 1 ? 5 : 0);
    ctx.emit({
      type: 'path.advanced',
      path,
      level: after,
      abilities: PATH_ABILITIES[path].filter((a) => a.level === after).map((a) => a.ability),
      to: { userId: player.userId },
    });
  }
}
