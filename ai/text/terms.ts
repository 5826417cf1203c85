import { stemmer } from 'stemmer';

/**
 * The brain's text analysis, shared by the BM25 index, snippet highlighting and the local embedder so all
 * three agree on what a "term" is: Unicode word runs, split at camelCase, snake_case and letter/digit
 * boundaries (the whole identifier is kept too), lower-cased, English stop words dropped, Porter-stemmed.
 * `embedQuery` yields `embed query embedqueri`; "chunks" and "chunking" both yield `chunk`.
 */

/** A word: a run of Unicode letters, digits and underscores (global; copy it before using its `lastIndex`). */
export const WORD_PATTERN = /[\p{L}\p{N}_]+/gu;

// Function words that carry no topic; question words included because eval and user queries are questions.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so such than that the their them then there these they this those to too was we ' +
    'were what when where which who whom why will with would you your yes also just any all about after before ' +
    'each other some only own same very should shall may might must being here out over under up down off again ' +
    'further once both few more most nor am s t'
  ).split(' '),
);

/** True for an English function word (lower case) that carries no topic. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const plainMemo = new Map<string, string[]>();

/** Lower-cased plain words of a text (identifiers split into their parts), for dictionary lookups. */
export function plainWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(WORD_PATTERN)) {
    let parts = plainMemo.get(match[0]);
    if (!parts) {
      parts = identifierParts(match[0])
        .map((part) => part.toLowerCase())
        .filter((lower) => lower.length >= 3 && !STOP_WORDS.has(lower) && /^\p{L}+$/u.test(lower));
      if (plainMemo.size >= 200_000) plainMemo.clear();
      plainMemo.set(match[0], parts);
    }
    for (const part of parts) words.push(part);
  }
  return words;
}

const MAX_MEMO = 200_000;
const memo = new Map<string, string[]>();

/** Splits an identifier into its parts: `embedQueryV2_fast` → `embed Query V 2 fast`. */
function identifierParts(word: string): string[] {
  return word
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4')
    .split(/[\s_]+/)
    .filter(Boolean);
}

function normaliseTerm(part: string): string | undefined {
  const lower = part.toLowerCase();
  if (lower.length < 2 && !/\p{N}/u.test(lower)) return undefined;
  if (STOP_WORDS.has(lower)) return undefined;
  return /^\p{N}+$/u.test(lower) ? lower : stemmer(lower);
}

/** True when every character is an ASCII lower-case letter. */
function isLowerAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/** Index terms for one raw word (memoised: vocabularies repeat heavily). */
export function termsOfWord(word: string): string[] {
  const cached = memo.get(word);
  if (cached) return cached;
  // Most words are plain lower-case ASCII: one part, the word itself (the identifier splitting's three Unicode
  // regex passes found nothing to split, and were most of a new word's cost in a bulk ingest).
  const parts = isLowerAscii(word) ? [word] : identifierParts(word);
  const candidates = parts.length > 1 ? [word, ...parts] : parts;
  const terms = [...new Set(candidates.map(normaliseTerm).filter((t): t is string => t !== undefined))];
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(word, terms);
  return terms;
}

/** All index terms of a text in order, with repeats (term frequency matters to BM25 and the embedder). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD_PATTERN)) terms.push(...termsOfWord(match[0]));
  return terms;
}

/** The distinct terms of a query. */
export function queryTerms(query: string): Set<string> {
  return new Set(analyze(query));
}
