import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

/** Distinct pre-tokens (words with their leading space, numbers, punctuation runs) whose tokens are remembered. */
const PRE_TOKENS_REMEMBERED = 100_000;

/**
 * cl100k_base byte-pair encoding of long runs without whitespace (a base64 blob, minified code, CJK text, one
 * 100 KB "word"), the same tokens js-tiktoken's `encode` gives, without its costs on such text: `encode` builds its
 * pre-tokenizer and special-token expressions on every call (about 40 µs, paid per piece when a run is encoded piece
 * by piece) and merges byte pairs keyed by comma-joined byte arrays (`[97,98].join(',')` for each candidate pair at
 * each step). Here the pattern is compiled once and a byte sequence is a Latin-1 string, so a candidate pair is a
 * `slice` and one map lookup. The ranks are read from the same bundled table (`js-tiktoken/ranks/cl100k_base`).
 */
export class RunEncoder {
  private readonly ranks = new Map<string, number>();
  /** Token → its bytes as a Latin-1 string. */
  private readonly bytes: string[] = [];
  private readonly pattern = new RegExp(cl100kBase.pat_str, 'gu');
  /** Pre-token → its tokens (`encodeOrdinary`). */
  private readonly remembered = new Map<string, number[]>();

  constructor() {
    for (const line of cl100kBase.bpe_ranks.split('\n')) {
      if (!line) continue;
      const [, offset, ...tokens] = line.split(' ');
      const first = Number.parseInt(offset, 10);
      tokens.forEach((token, i) => {
        const bytes = Buffer.from(token, 'base64').toString('latin1');
        this.ranks.set(bytes, first + i);
        this.bytes[first + i] = bytes;
      });
    }
  }

  /**
   * The tokens of `text` (ordinary text: special-token spellings such as `<|endoftext|>` are encoded as text). A
   * pre-token longer than `maxPiece` characters is encoded in pieces of that many characters, which keeps the merge
   * (quadratic in a piece's bytes) linear in the text; its tokens still decode to the exact text.
   */
  encode(text: string, maxPiece: number): number[] {
    const tokens: number[] = [];
    for (const [preToken] of text.matchAll(this.pattern)) {
      for (let start = 0; start < preToken.length;) {
        let end = Math.min(preToken.length, start + maxPiece);
        // Never cut a surrogate pair in two.
        if (end < preToken.length && /[\ud800-\udbff]/.test(preToken[end - 1])) end -= 1;
        this.encodePiece(latin1Bytes(preToken.slice(start, end)), tokens);
        start = end;
      }
    }
    return tokens;
  }

  /**
   * The tokens of ordinary text, appended to `into`: js-tiktoken's `encode(text, [], [])` (every pre-token merged
   * whole), with each pre-token's tokens remembered (up to PRE_TOKENS_REMEMBERED, then forgotten all at once). Prose
   * and code repeat their words, and js-tiktoken merges a word it does not hold whole anew at every occurrence: that
   * was 40 % of an ingest's CPU per chunk (bench/README.md, issue 37). Callers cut runs longer than a few dozen
   * characters out first (`encode` with pieces): a whole pre-token's merge is quadratic in its length.
   */
  encodeOrdinary(text: string, into: number[]): void {
    for (const [preToken] of text.matchAll(this.pattern)) {
      let tokens = this.remembered.get(preToken);
      if (tokens === undefined) {
        tokens = [];
        this.encodePiece(latin1Bytes(preToken), tokens);
        if (this.remembered.size >= PRE_TOKENS_REMEMBERED) this.remembered.clear();
        this.remembered.set(preToken, tokens);
      }
      for (const token of tokens) into.push(token);
    }
  }

  /** The UTF-8 bytes of `token` as a Latin-1 string ('' for a special token). */
  bytesOf(token: number): string {
    return this.bytes[token] ?? '';
  }

  /**
   * Byte-pair merging of one piece (as Latin-1 bytes): the lowest-ranked adjacent pair first, leftmost on ties. The
   * rank of each adjacent pair is kept, so a merge looks up only the two pairs it changed.
   */
  private encodePiece(bytes: string, into: number[]): void {
    const whole = this.ranks.get(bytes);
    if (whole !== undefined) {
      into.push(whole);
      return;
    }
    // Part i is bytes[bounds[i], bounds[i + 1]); pairs[i] ranks parts i and i + 1 together (Infinity: no token).
    const bounds: number[] = [];
    for (let i = 0; i <= bytes.length; i++) bounds.push(i);
    const rankOf = (i: number) => this.ranks.get(bytes.slice(bounds[i], bounds[i + 2])) ?? Infinity;
    const pairs: number[] = [];
    for (let i = 0; i + 1 < bytes.length; i++) pairs.push(rankOf(i));
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < pairs.length; i++) {
        if (pairs[i] < bestRank) {
          bestRank = pairs[i];
          best = i;
        }
      }
      if (best < 0) break;
      bounds.splice(best + 1, 1);
      pairs.splice(best + 1, 1);
      if (best < pairs.length) pairs[best] = best + 2 < bounds.length ? rankOf(best) : Infinity;
      if (best > 0) pairs[best - 1] = rankOf(best - 1);
      if (best + 2 >= bounds.length) pairs.length = Math.max(0, bounds.length - 2);
    }
    for (let i = 0; i + 1 < bounds.length; i++) {
      const rank = this.ranks.get(bytes.slice(bounds[i], bounds[i + 1]));
      if (rank !== undefined) into.push(rank);
    }
  }
}

/** The UTF-8 bytes of `text` as a Latin-1 string (ASCII text is its own). */
function latin1Bytes(text: string): string {
  // eslint-disable-next-line no-control-regex -- ASCII is the range U+0000-U+007F
  return /^[\u0000-\u007f]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
