/**
 * Word boundaries and query-term candidates for snippets, found without tokenising the whole text. A word
 * is a maximal run of Unicode letters, digits and underscores, as `WORD_PATTERN` of ai/text/terms.
 */

const WORD_CODE_POINT = /^[\p{L}\p{N}_]$/u;
const ASCII_WORD = new Uint8Array(128).map((_, c) => (WORD_CODE_POINT.test(String.fromCharCode(c)) ? 1 : 0));

/** Whether code unit `i` belongs to a word character (both halves of a surrogate pair answer for the pair). */
function isWordAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit < 128) return ASCII_WORD[unit] === 1;
  let codePoint = text.codePointAt(i)!;
  if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
    const high = text.charCodeAt(i - 1);
    if (high >= 0xd800 && high <= 0xdbff) codePoint = text.codePointAt(i - 1)!;
  }
  return WORD_CODE_POINT.test(String.fromCodePoint(codePoint));
}

/** The word holding the code units `from`..`to` (widened to the whole run of word characters). */
export function wordAround(text: string, from: number, to: number): [number, number] {
  let start = from;
  while (start > 0 && isWordAt(text, start - 1)) start--;
  let end = to;
  while (end < text.length && isWordAt(text, end)) end++;
  return [start, end];
}

/** `position`, or the end of the word it cuts. */
export function wordEndAt(text: string, position: number): number {
  if (position <= 0 || position >= text.length) return position;
  if (!isWordAt(text, position - 1) || !isWordAt(text, position)) return position;
  return wordAround(text, position, position)[1];
}

/** `position`, or the start of the word it cuts. */
export function wordStartBefore(text: string, position: number): number {
  if (position <= 0 || position >= text.length) return position;
  if (!isWordAt(text, position - 1) || !isWordAt(text, position)) return position;
  return wordAround(text, position, position)[0];
}

/**
 * The part of a term every word carrying it contains, case aside: the term less its last two characters
 * (at least one kept). Terms are lower-cased words or identifier parts, Porter-stemmed, and the Porter
 * stemmer only rewrites the end of a word, never more than two characters past the part it keeps
 * (`query` → `queri`, `hoping` → `hope`, `sensibility` → `sensibl`).
 */
export function termCandidate(term: string): string {
  return term.slice(0, Math.max(1, term.length - 2));
}

const candidates = new WeakMap<ReadonlySet<string>, string[]>();

/** The distinct `termCandidate`s of a term set (memoised per set: one query's snippets share it). */
export function candidatesOf(terms: ReadonlySet<string>): string[] {
  let found = candidates.get(terms);
  if (!found) {
    found = [...new Set([...terms].filter((term) => term !== '').map(termCandidate))];
    candidates.set(terms, found);
  }
  return found;
}
