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

/** The default counter: cl100k_base via js-tiktoken. */
export const tiktokenCounter: TokenCounter = {
  count(text) {
    return text.length === 0 ? 0 : cl100k().encode(text).length;
  },
  split(text, maxTokens, overlapTokens) {
    const tokens = cl100k().encode(text);
    const step = Math.max(1, maxTokens - Math.min(overlapTokens, maxTokens - 1));
    const pieces: string[] = [];
    for (let start = 0; start < tokens.length; start += step) {
      pieces.push(cl100k().decode(tokens.slice(start, start + maxTokens)));
      if (start + maxTokens >= tokens.length) break;
    }
    return pieces;
  },
};
