import type { Actor } from './events';

/** Small English helpers for player-facing text. */

/**
 * The plural of a noun phrase: the data's `plural` when given, else the head noun pluralised ("sprig of
 * moonleaf" → "sprigs of moonleaf", "cellar rat" → "cellar rats", "berry" → "berries", "box" → "boxes").
 */
export function pluralOf(name: string, plural?: string): string {
  if (plural) return plural;
  const of = name.indexOf(' of ');
  if (of > 0) return `${pluralOf(name.slice(0, of))}${name.slice(of)}`;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/** "1 cellar rat", "3 cellar rats". */
export function counted(count: number, name: string, plural?: string): string {
  return `${count} ${count === 1 ? name : pluralOf(name, plural)}`;
}

/** Ordinal words up to ten (numbered creatures: "the second hen"). */
export const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** "first", "second", ... "tenth", then "11th", "21st", "22nd". */
export function ordinalWord(n: number): string {
  if (ORDINALS[n - 1]) return ORDINALS[n - 1];
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A creature's name as narration prints it: "second speckled hen" when it has a number, else its name. */
export function labelOf(actor: Pick<Actor, 'name' | 'nth'>): string {
  return actor.nth ? `${ordinalWord(actor.nth)} ${actor.name}` : actor.name;
}
