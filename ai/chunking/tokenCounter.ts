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
 * BPE merging is quadratic in the length of one pre-token (a run without whitespace): 8,000 characters of `x` take
 * seconds, 100,000 hours. Runs longer than this are encoded in pieces of this many characters; the tokens of the
 * pieces still decode to the exact text, and counts differ from one-piece encoding only inside such runs.
 */
const MAX_RUN = 64;
const LONG_RUN = /\S{65,}/g;

function appendTokens(into: number[], text: string): void {
  for (const token of cl100k().encode(text)) into.push(token);
}

/** cl100k_base tokens of `text`, with runs longer than MAX_RUN characters encoded piece by piece. */
function encode(text: string): number[] {
  const tokens: number[] = [];
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    appendTokens(tokens, text.slice(last, match.index));
    const run = match[0];
    for (let start = 0; start < run.length;) {
      let end = Math.min(run.length, start + MAX_RUN);
      // Never cut a surrogate pair in two.
      if (end < run.length && /[\ud800-\udbff]/.test(run[end - 1])) end -= 1;
      appendTokens(tokens, run.slice(start, end));
      start = end;
    }
    last = match.index + run.length;
  }
  appendTokens(tokens, text.slice(last));
  return tokens;
}

/** The default counter: cl100k_base via js-tiktoken, in time linear in the text (see MAX_RUN). */
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
