import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

/**
 * Token counting for chunk budgets with the cl100k_base BPE (the encoding of OpenAI's embedding models),
 * bundled inside js-tiktoken so nothing is downloaded. The encoder is built on first use (about 250 ms).
 */
export interface TokenCounter {
  count(text: string): number;
  /** Splits text into pieces of at most `maxTokens` tokens, consecutive pieces sharing `overlapTokens`. */
  split(text: string, maxTokens: number, overlapTokens: number): string[];
}

let encoder: Tiktoken | undefined;

function cl100k(): Tiktoken {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder;
}

/**
 * BPE merging is quadratic in the length of one pre-token (a run without whitespace), and js-tiktoken's merge is slow
 * per step: 8,000 characters of `x` take seconds, 100,000 hours. Text is encoded as it is, except runs longer than
 * LONG_RUN characters (a base64 blob, minified code, CJK text without spaces, one 100 KB "word"), which are encoded
 * in pieces of RUN_PIECE characters, so their cost is linear in the run and a fraction of what 64-character pieces took;
 * the tokens of the pieces still decode to the exact text, and counts differ from one-piece encoding only inside such
 * runs (a few percent more tokens). Repeated pieces are encoded once per call.
 */
const LONG_RUN_CHARS = 64;
const RUN_PIECE = 16;
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS + 1},}`, 'g');

function appendTokens(into: number[], tokens: Iterable<number>): void {
  for (const token of tokens) into.push(token);
}

/** cl100k_base tokens of `text`, with runs longer than LONG_RUN_CHARS encoded piece by piece. */
function encode(text: string): number[] {
  const tokens: number[] = [];
  const pieces = new Map<string, number[]>();
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    appendTokens(tokens, cl100k().encode(text.slice(last, match.index)));
    const run = match[0];
    for (let start = 0; start < run.length;) {
      let end = Math.min(run.length, start + RUN_PIECE);
      // Never cut a surrogate pair in two.
      if (end < run.length && /[\ud800-\udbff]/.test(run[end - 1])) end -= 1;
      const piece = run.slice(start, end);
      let encoded = pieces.get(piece);
      if (!encoded) pieces.set(piece, (encoded = cl100k().encode(piece)));
      appendTokens(tokens, encoded);
      start = end;
    }
    last = match.index + run.length;
  }
  appendTokens(tokens, cl100k().encode(text.slice(last)));
  return tokens;
}

/** The default counter: cl100k_base via js-tiktoken, in time linear in the text (see RUN_PIECE). */
export const tiktokenCounter: TokenCounter = {
  count(text) {
    return text.length === 0 ? 0 : encode(text).length;
  },
  split(text, maxTokens, overlapTokens) {
    const tokens = encode(text);
    const step = Math.max(1, maxTokens - Math.min(overlapTokens, maxTokens - 1));
    const pieces: string[] = [];
    for (let start = 0; start < tokens.length; start += step) {
      pieces.push(cl100k().decode(tokens.slice(start, start + maxTokens)));
      if (start + maxTokens >= tokens.length) break;
    }
    return pieces;
  },
};
