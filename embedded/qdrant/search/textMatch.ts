/** Options of a `text` payload index that change how `match: {text}` compares (Qdrant's defaults). */
export interface TextIndexOptions {
  tokenizer: 'word' | 'whitespace' | 'prefix' | 'multilingual';
  lowercase: boolean;
  minTokenLen?: number;
  maxTokenLen?: number;
}

/** Qdrant's defaults for a `text` index created without parameters. */
export const defaultTextIndexOptions: TextIndexOptions = { tokenizer: 'word', lowercase: true };

/** Splits text into index tokens the way the configured tokenizer does. */
export function tokenize(text: string, options: TextIndexOptions): string[] {
  const source = options.lowercase ? text.toLowerCase() : text;
  const raw = options.tokenizer === 'whitespace' ? source.split(/\s+/) : source.split(/[^\p{L}\p{N}_]+/u);
  return raw.filter(
    (token) =>
      token.length > 0 &&
      (options.minTokenLen === undefined || token.length >= options.minTokenLen) &&
      (options.maxTokenLen === undefined || token.length <= options.maxTokenLen),
  );
}

/** The three full-text match modes Qdrant offers. */
export type TextMatchMode = 'all' | 'any' | 'phrase';

/**
 * Full-text match of one stored string. With a text index, Qdrant compares tokens: every query token
 * (`text`), at least one (`text_any`), or the tokens consecutively (`phrase`). Without an index, `text` is an
 * exact substring test, which is what Qdrant falls back to as well.
 */
export function matchesText(
  stored: string,
  query: string,
  mode: TextMatchMode,
  index: TextIndexOptions | undefined,
): boolean {
  if (!index)
    return mode === 'any' ? query.split(/\s+/).some((word) => stored.includes(word)) : stored.includes(query);
  const storedTokens = tokenize(stored, index);
  const queryTokens = tokenize(query, index);
  if (queryTokens.length === 0) return false;
  if (index.tokenizer === 'prefix') {
    const hasPrefix = (token: string) => storedTokens.some((candidate) => candidate.startsWith(token));
    return mode === 'any' ? queryTokens.some(hasPrefix) : queryTokens.every(hasPrefix);
  }
  if (mode === 'phrase') return containsSequence(storedTokens, queryTokens);
  const present = new Set(storedTokens);
  return mode === 'any' ? queryTokens.some((t) => present.has(t)) : queryTokens.every((t) => present.has(t));
}

function containsSequence(haystack: string[], needle: string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((token, offset) => haystack[start + offset] === token)) return true;
  }
  return false;
}
