import { LangEn } from 'ethers';

/** What a finding is: key material and mnemonics (refused by remember), tokens and personal data (reported). */
export type SecretKind = 'private_key' | 'mnemonic' | 'api_token' | 'email';

/** Kinds `remember` (and ingestion) refuse unless redaction is configured. */
export const BLOCKING_SECRET_KINDS: readonly SecretKind[] = ['private_key', 'mnemonic'];

/** One finding in a text: its kind and where it is (never the secret itself). */
export interface SecretFinding {
  kind: SecretKind;
  /** Character offset and length in the scanned text. */
  start: number;
  length: number;
  /** 1-based line of the start. */
  line: number;
}

const PATTERNS: { kind: SecretKind; pattern: RegExp }[] = [
  {
    kind: 'private_key',
    pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z]+ )*PRIVATE KEY-----|$)/g,
  },
  // A bare 32-byte hex secret (Ethereum private keys); 0x-prefixed or standing alone as a word.
  { kind: 'private_key', pattern: /\b(?:0x)?[0-9a-fA-F]{64}\b/g },
  {
    kind: 'api_token',
    pattern:
      /\b(?:sk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,}|AKIA[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20})\b/g,
  },
  {
    kind: 'api_token',
    pattern:
      /\b(?:api[_-]?key|access[_-]?token|secret[_-]?key|auth[_-]?token)\s*[:=]\s*["']?[A-Za-z0-9_\-.]{16,}/gi,
  },
  {
    kind: 'email',
    pattern: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/g,
  },
];

let bip39: Set<string> | undefined;

/** The BIP-39 English word list (2048 words), from ethers (bundled, nothing downloaded). */
function bip39Words(): Set<string> {
  if (!bip39) {
    const list = LangEn.wordlist();
    bip39 = new Set(Array.from({ length: 2048 }, (_, i) => list.getWord(i)));
  }
  return bip39;
}

/**
 * Runs of 12 or more consecutive BIP-39 words (a wallet seed phrase is 12-24 of them): lower-case words of 3-8
 * letters (the list's lengths) standing alone, separated by white space only. One pass of one regular
 * expression over the text, with no match object kept for words outside a run.
 */
function mnemonicFindings(text: string): { start: number; length: number }[] {
  const words = bip39Words();
  const found: { start: number; length: number }[] = [];
  const word = /(?<![A-Za-z])[a-z]{3,8}(?![A-Za-z])/g;
  let runStart = -1;
  let runEnd = -1;
  let runLength = 0;
  const close = () => {
    if (runLength >= 12) found.push({ start: runStart, length: runEnd - runStart });
    runLength = 0;
  };
  for (let match = word.exec(text); match !== null; match = word.exec(text)) {
    if (!words.has(match[0])) {
      close();
      continue;
    }
    if (runLength > 0 && !/^\s+$/.test(text.slice(runEnd, match.index))) close();
    if (runLength === 0) runStart = match.index;
    runEnd = match.index + match[0].length;
    runLength++;
  }
  close();
  return found;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Finds secrets and personal data in a text: PEM private keys and 64-hex-digit keys, BIP-39 seed phrases (12+
 * consecutive lower-case list words), API tokens of the common providers and `api_key=…` assignments, e-mail
 * addresses. Overlapping findings keep the first (a PEM block is not also reported as tokens). `kinds` limits the
 * scan to those kinds (the refusing callers look for BLOCKING_SECRET_KINDS only).
 */
export function scanForSecrets(
  text: string,
  kinds: readonly SecretKind[] = ['private_key', 'mnemonic', 'api_token', 'email'],
): SecretFinding[] {
  const raw: Omit<SecretFinding, 'line'>[] = [];
  for (const { kind, pattern } of PATTERNS) {
    if (!kinds.includes(kind)) continue;
    for (const match of text.matchAll(pattern))
      raw.push({ kind, start: match.index!, length: match[0].length });
  }
  if (kinds.includes('mnemonic')) {
    for (const found of mnemonicFindings(text)) raw.push({ kind: 'mnemonic', ...found });
  }
  raw.sort((a, b) => a.start - b.start || b.length - a.length);
  const kept: SecretFinding[] = [];
  let end = -1;
  for (const finding of raw) {
    if (finding.start < end) continue;
    kept.push({ ...finding, line: lineAt(text, finding.start) });
    end = finding.start + finding.length;
  }
  return kept;
}

/** The text with each finding replaced by `[redacted:<kind>]`. */
export function redactSecrets(
  text: string,
  findings: readonly SecretFinding[] = scanForSecrets(text),
): string {
  let out = '';
  let at = 0;
  for (const finding of [...findings].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, finding.start)}[redacted:${finding.kind}]`;
    at = finding.start + finding.length;
  }
  return out + text.slice(at);
}
