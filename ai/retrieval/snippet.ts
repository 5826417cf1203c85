import { termsOfWord, WORD_PATTERN } from '../text/terms';
import { candidatesOf, wordAround, wordEndAt, wordStartBefore } from './wordScan';

/** Snippet options. Defaults: about 240 characters, `<mark>` / `</mark>` around matched words. */
export interface SnippetOptions {
  maxChars: number;
  open: string;
  close: string;
}

export const DEFAULT_SNIPPET_OPTIONS: SnippetOptions = { maxChars: 240, open: '<mark>', close: '</mark>' };

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** A word of the text whose terms meet the query, and which of the query's terms it carries. */
interface Match {
  start: number;
  end: number;
  terms: string[];
}

/** The matches of one word, if its terms meet `terms`. */
function matchOf(text: string, start: number, end: number, terms: ReadonlySet<string>): Match | undefined {
  let matched: string[] | undefined;
  for (const term of termsOfWord(text.slice(start, end))) if (terms.has(term)) (matched ??= []).push(term);
  return matched && { start, end, terms: matched };
}

/**
 * The words of `text` whose terms (ai/text/terms) meet `terms`, in order. Only the words holding a
 * candidate of a term (`termCandidate`, found with `indexOf` in the lower-cased text) are analysed, so the
 * cost follows the number of near-misses, not the length of the text. Text whose lower-casing changes its
 * length (a few letters such as `İ`) is analysed word by word.
 */
function findMatches(text: string, terms: ReadonlySet<string>): Match[] {
  const matches: Match[] = [];
  const lower = text.toLowerCase();
  if (lower.length !== text.length) {
    for (const word of text.matchAll(new RegExp(WORD_PATTERN.source, WORD_PATTERN.flags))) {
      const match = matchOf(text, word.index, word.index + word[0].length, terms);
      if (match) matches.push(match);
    }
    return matches;
  }
  const analysed = new Set<number>();
  for (const candidate of candidatesOf(terms)) {
    for (let at = lower.indexOf(candidate); at !== -1; at = lower.indexOf(candidate, at)) {
      const [start, end] = wordAround(text, at, at + candidate.length);
      at = Math.max(end, at + 1);
      if (analysed.has(start)) continue;
      analysed.add(start);
      const match = matchOf(text, start, end, terms);
      if (match) matches.push(match);
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/**
 * Start offset of the window (at most `maxChars` long) holding the most distinct matched terms, then the
 * most matches: a two-pointer sweep over the matches, O(matches).
 */
function bestWindowStart(matches: Match[], maxChars: number): number {
  const inWindow = new Map<string, number>();
  let best = { start: 0, distinct: 0, count: 0 };
  let right = 0;
  for (let left = 0; left < matches.length; left++) {
    for (; right < matches.length && matches[right].end - matches[left].start <= maxChars; right++) {
      for (const term of matches[right].terms) inWindow.set(term, (inWindow.get(term) ?? 0) + 1);
    }
    const count = right - left;
    if (inWindow.size > best.distinct || (inWindow.size === best.distinct && count > best.count)) {
      best = { start: matches[left].start, distinct: inWindow.size, count };
    }
    for (const term of matches[left].terms) {
      const remaining = (inWindow.get(term) ?? 1) - 1;
      if (remaining === 0) inWindow.delete(term);
      else inWindow.set(term, remaining);
    }
  }
  return best.start;
}

/**
 * Builds a display snippet: the `maxChars` window of `text` with the most distinct query terms (the text's
 * start when nothing matches), whitespace collapsed, HTML-escaped, each word whose terms (see ai/text/terms)
 * meet `terms` wrapped in `open`/`close`, and `…` where the window cuts the text (never inside a word).
 */
export function buildSnippet(
  text: string,
  terms: ReadonlySet<string>,
  options: Partial<SnippetOptions> = {},
): string {
  const { maxChars, open, close } = { ...DEFAULT_SNIPPET_OPTIONS, ...options };
  const matches = findMatches(text, terms);
  const centre = matches.length > 0 ? bestWindowStart(matches, maxChars) : 0;
  // Lead in with a little context before the first match, then snap both ends to word boundaries.
  let start = Math.max(0, centre - Math.floor(maxChars / 5));
  let end = Math.min(text.length, start + maxChars);
  start = Math.max(0, Math.min(start, end - maxChars));
  if (start > 0) start = wordEndAt(text, start);
  if (end < text.length) end = Math.max(start, wordStartBefore(text, end));

  let out = '';
  let cursor = start;
  for (const match of matches) {
    if (match.start < start || match.end > end) continue;
    out +=
      escapeHtml(text.slice(cursor, match.start)) +
      open +
      escapeHtml(text.slice(match.start, match.end)) +
      close;
    cursor = match.end;
  }
  out += escapeHtml(text.slice(cursor, end));
  const body = out.replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}
