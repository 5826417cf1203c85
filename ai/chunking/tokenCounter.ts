import { RunEncoder } from './runEncoder';

/**
 * Token counting for chunk budgets with the cl100k_base BPE (the encoding of OpenAI's embedding models),
 * bundled inside js-tiktoken so nothing is downloaded. The encoder is built on first use (about 250 ms).
 */
export interface TokenCounter {
  count(text: string): number;
  /** Splits text into pieces of at most `maxTokens` tokens, consecutive pieces sharing `overlapTokens`. */
  split(text: string, maxTokens: number, overlapTokens: number): string[];
}

/**
 * BPE merging is quadratic in the length of one pre-token (a run without whitespace), and js-tiktoken's `encode` is
 * slow on text its vocabulary does not hold whole: 8,000 characters of `x` took seconds, a 100 KB line of base64 or
 * CJK text several. Text is encoded as js-tiktoken encodes it (by `RunEncoder.encodeOrdinary`, which merges each
 * distinct word once instead of at every occurrence), except runs longer than LONG_RUN_CHARS characters (a
 * base64 blob, minified code, CJK text without spaces, one 100 KB "word"), which `RunEncoder` encodes with the same
 * ranks, cutting a pre-token longer than RUN_PIECE characters into pieces of that many: the cost is then linear in
 * the run, the tokens still decode to the exact text, and counts differ from one-piece encoding only inside such
 * pre-tokens (a few percent more tokens).
 */
const LONG_RUN_CHARS = 64;
const RUN_PIECE = 32;
const LONG_RUN = new RegExp(`\\S{${LONG_RUN_CHARS + 1},}`, 'g');

let runEncoder: RunEncoder | undefined;

function appendTokens(into: number[], tokens: number[]): void {
  for (const token of tokens) into.push(token);
}

/** The last text encoded and its tokens: a splitter counts a text and then splits the same text. */
let lastEncoded: { text: string; tokens: number[] } | undefined;

/** cl100k_base tokens of `text` (the last text's are remembered; callers never change the array). */
function encode(text: string): number[] {
  if (lastEncoded?.text === text) return lastEncoded.tokens;
  const tokens = encodeAnew(text);
  lastEncoded = { text, tokens };
  return tokens;
}

/**
 * cl100k_base tokens of `text`: runs longer than LONG_RUN_CHARS encoded by `RunEncoder` in pieces, the text between
 * them as js-tiktoken encodes it (`RunEncoder.encodeOrdinary`: the same tokens, each word merged once).
 */
function encodeAnew(text: string): number[] {
  const tokens: number[] = [];
  const runs = (runEncoder ??= new RunEncoder());
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    runs.encodeOrdinary(text.slice(last, match.index), tokens);
    appendTokens(tokens, runs.encode(match[0], RUN_PIECE));
    last = match.index + match[0].length;
  }
  runs.encodeOrdinary(text.slice(last), tokens);
  return tokens;
}

/** The default counter: cl100k_base via js-tiktoken, in time linear in the text (see RUN_PIECE). */
export const tiktokenCounter: TokenCounter = {
  count(text) {
    return text.length === 0 ? 0 : encode(text).length;
  },
  split(text, maxTokens, overlapTokens) {
    const tokens = encode(text);
    runEncoder ??= new RunEncoder();
    const bytes = tokens.map((token) => runEncoder!.bytesOf(token));
    // A piece starts and ends between characters: never inside a character a token boundary cuts (CJK, emoji).
    const starts: number[] = [];
    let offset = 0;
    for (const piece of bytes) {
      starts.push(offset);
      offset += piece.length;
    }
    const all = bytes.join('');
    const clean = (i: number) => i === 0 || i >= tokens.length || (all.charCodeAt(starts[i]) & 0xc0) !== 0x80;
    const decode = (from: number, to: number) =>
      Buffer.from(bytes.slice(from, to).join(''), 'latin1').toString();
    const pieces: string[] = [];
    for (let start = 0; ;) {
      let end = Math.min(tokens.length, start + maxTokens);
      while (end > start + 1 && !clean(end)) end -= 1;
      pieces.push(decode(start, end));
      if (end >= tokens.length) return pieces;
      let next = Math.max(start + 1, end - Math.min(overlapTokens, maxTokens - 1));
      while (next < end && !clean(next)) next += 1;
      start = next;
    }
  },
};
