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
