import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { chunkDocument } from '../../../ai/chunking/documentChunker';
import { RunEncoder } from '../../../ai/chunking/runEncoder';
import { tiktokenCounter } from '../../../ai/chunking/tokenCounter';
import { seededRandom } from '../../../platform/seededRandom';

const random = seededRandom(41);
const pick = (alphabet: string, length: number) => {
  const chars = [...alphabet];
  return Array.from({ length }, () => chars[Math.floor(random() * chars.length)]).join('');
};

/**
 * 100 KB of prose in lines of about 90 characters: the normal document the others are measured against. Its words
 * are new ones on every call (3-9 random letters), since the encoder remembers each word's tokens: the measure is the
 * cost of text the encoder has not seen, as the long lines are.
 */
function proseLines(): string {
  let text = '';
  for (let i = 0; text.length < 100_000; i++)
    text += pick('abcdefghijklmnopqrstuvwxyz', 3 + Math.floor(random() * 7)) + (i % 14 === 13 ? '.\n' : ' ');
  return text;
}

/** Milliseconds to chunk `text` as a plain-text document. */
function chunkingCost(text: string): number {
  const started = performance.now();
  chunkDocument({ source: 'docs/long.txt', index: 'docs', text });
  return performance.now() - started;
}

/**
 * How many times the cost of chunking `normal` chunking `text` costs: the fastest of five runs each (what the work
 * itself costs; load from other processes only adds), the two measured in turn.
 */
function costRatio(text: string, normal: () => string): number {
  const costs = Array.from({ length: 5 }, () => [chunkingCost(normal()), chunkingCost(text)]);
  const fastest = (values: number[]) => Math.min(...values);
  return Math.round((fastest(costs.map(([, c]) => c)) / fastest(costs.map(([n]) => n))) * 10) / 10;
}

describe('documents that are one long line', () => {
  it('encodes runs exactly as js-tiktoken does', () => {
    const reference = new Tiktoken(cl100kBase);
    const runs = new RunEncoder();
    const alphabet =
      'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=-_.,;:!?()[]{}漢字仮名交éüß😀 \n\t\'"';
    const mismatches = Array.from({ length: 500 }, () =>
      pick(alphabet, 1 + Math.floor(random() * 120)),
    ).filter(
      (text) => JSON.stringify(runs.encode(text, Infinity)) !== JSON.stringify(reference.encode(text)),
    );
    expect(mismatches).toEqual([]);
  });

  it('splits a 100 KB line into pieces within the budget that give back the exact text, no character cut', () => {
    const line = pick('abcdefghijklmnopqrstuvwxyz0123456789+/漢字😀', 100_000);
    const pieces = tiktokenCounter.split(line, 512, 0);
    expect(pieces.join('')).toBe(line);
    expect(pieces.every((piece) => tiktokenCounter.count(piece) <= 512)).toBe(true);
  });

  it('chunks a 100 KB single-line document at most 8 times as slowly as 100 KB of prose in lines', () => {
    const normal = proseLines();
    const lines: Record<string, string> = {
      'one letter': 'x'.repeat(100_000),
      base64: pick('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/', 100_000),
      hex: pick('0123456789abcdef', 100_000),
      'CJK without spaces': pick('漢字仮名交文例語本日月火水木金土山川田人口目耳手足', 34_000),
      'prose without newlines': normal.replace(/\n/g, ' '),
    };
    // Warm-up: the encoders are built on first use.
    for (const text of [normal, ...Object.values(lines)])
      chunkDocument({ source: 'docs/w.txt', index: 'docs', text });
    const ratios = Object.fromEntries(
      Object.entries(lines).map(([kind, text]) => [kind, costRatio(text, proseLines)]),
    );
    // Before pieces: CJK 54-58 times, one letter 21-25 times, base64 6-9 times, hex 3-4 times the cost of prose of
    // common words; with pieces, 0.3-5 times. Against prose of unseen words (since words' tokens are remembered):
    // 0.2-1.6 times.
    expect(Object.entries(ratios).filter(([, ratio]) => ratio > 8)).toEqual([]);
  }, 120_000);
});
