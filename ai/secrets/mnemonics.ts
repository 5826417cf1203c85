import { LangEn, Mnemonic } from 'ethers';
import type { RawFinding } from './secretFinding';

let english: Set<string> | undefined;

/** The BIP-39 English word list (2048 words), bundled with ethers: nothing is downloaded. */
function bip39Words(): Set<string> {
  if (!english) {
    const list = LangEn.wordlist();
    english = new Set(Array.from({ length: 2048 }, (_, i) => list.getWord(i)));
  }
  return english;
}

/** The lengths of a BIP-39 phrase, longest first. */
const PHRASE_LENGTHS = [24, 21, 18, 15, 12];

/**
 * Wallet seed phrases: runs of 12 or more lower-case BIP-39 words separated by white space without a blank line,
 * whose first or last 12, 15, 18, 21 or 24 words pass the BIP-39 checksum (ethers' `Mnemonic.isValidMnemonic`).
 * Prose made of list words seldom checks out (a 12-word window passes one time in 16, a 24-word one in 256), and
 * only a run's ends are tried, so a long list of words is not a lottery. One pass of one regular expression.
 */
export function findMnemonics(text: string): RawFinding[] {
  const words = bip39Words();
  const found: RawFinding[] = [];
  const run: Run = [];
  const close = () => {
    const phrase = run.length >= 12 ? checkedPhrase(run) : undefined;
    if (phrase) found.push(phrase);
    run.length = 0;
  };
  const word = /(?<![A-Za-z])[a-z]{3,8}(?![A-Za-z])/g;
  for (let match = word.exec(text); match !== null; match = word.exec(text)) {
    if (!words.has(match[0])) {
      close();
      continue;
    }
    const last = run.at(-1);
    if (last && !/^[ \t]*(?:\r?\n[ \t]*)?$/.test(text.slice(last.end, match.index))) close();
    run.push({ word: match[0], start: match.index, end: match.index + match[0].length });
  }
  close();
  return found;
}

type Run = Array<{ word: string; start: number; end: number }>;

/** The longest checksum-valid phrase at the start or the end of a run, as a finding. */
function checkedPhrase(run: Run): RawFinding | undefined {
  for (const n of PHRASE_LENGTHS.filter((length) => length <= run.length)) {
    for (const at of new Set([0, run.length - n])) {
      const phrase = run.slice(at, at + n);
      if (!Mnemonic.isValidMnemonic(phrase.map((w) => w.word).join(' '))) continue;
      const start = phrase[0].start;
      return { kind: 'mnemonic', rule: 'bip39_mnemonic', start, length: phrase[n - 1].end - start };
    }
  }
  return undefined;
}
