import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { RunEncoder } from '../../../ai/chunking/runEncoder';
import { tiktokenCounter } from '../../../ai/chunking/tokenCounter';

const ROOT = path.join(__dirname, '../../..');

describe('tiktokenCounter', () => {
  it('counts prose as cl100k_base does', () => {
    expect(tiktokenCounter.count('')).toBe(0);
    expect(tiktokenCounter.count('The quick brown fox jumps over the lazy dog.')).toBe(10);
  });

  it('encodes a run without whitespace piece by piece (BPE is quadratic in a run), losing no character', () => {
    // Before pieces, this one run took minutes and stalled the process; now it is linear.
    const run = `${'x'.repeat(50_000)}${'😀'.repeat(500)}`;
    expect(tiktokenCounter.count(run)).toBe(7250);
    const text = `start ${run} end`;
    expect(tiktokenCounter.split(text, 1_000_000, 0)).toEqual([text]);
    expect(tiktokenCounter.split(text, 4_000, 0).join('')).toBe(text);
  });

  it('counts a special token spelled in a document as ordinary text, never throwing', () => {
    // A source file mentioning <|endoftext|> made the whole ingest batch fail with a 500.
    const text = 'The model stops at <|endoftext|> and never emits <|fim_prefix|>.';
    expect(tiktokenCounter.count(text)).toBeGreaterThan(10);
    expect(tiktokenCounter.split(text, 4, 0).join('')).toBe(text);
  });

  it("gives js-tiktoken's own tokens for ordinary text, a word's merge remembered across texts", () => {
    const reference = new Tiktoken(cl100kBase);
    const runs = new RunEncoder();
    const texts = [
      ...['docs/SPEC.md', 'ai/README.md', 'ai/chunking/tokenCounter.ts', 'bench/ingestScale/pages.ts'].map(
        (file) => readFileSync(path.join(ROOT, file), 'utf8'),
      ),
      'Ünïcödé façade — naïve café; 東京 ソウル 😀👍🏽 1234567 0x1f  \t\n\n   trailing   ',
      "it's we'll THEY'RE don't\r\n  <|endoftext|> x",
    ];
    for (const text of texts) {
      for (let pass = 0; pass < 2; pass++) {
        const tokens: number[] = [];
        runs.encodeOrdinary(text, tokens);
        expect(tokens).toEqual(reference.encode(text, [], []));
      }
    }
  });
});
