import { detectSecrets, redactFindings } from '../secrets/secretDetector';
import { lineAt } from '../secrets/secretFinding';

/** What a finding is: key material and mnemonics (refused by remember), tokens and personal data (reported). */
export type SecretKind = 'private_key' | 'mnemonic' | 'api_token' | 'email';

/** Kinds `remember` refuses unless redaction is configured. */
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

/**
 * What a player's chat adds to the ingest screen's rules (ai/secrets): a 32-byte hex value that prose names as a
 * key a few words before it ("my private key is 0x…", "wallet key: …"), looser token shapes and `api_key=…`
 * assignments of any provider, and e-mail addresses (personal data: reported by the sweep, never refused). A bare 64-hex value — a transaction
 * hash, a checksum, a digest in a link — is not a secret here either.
 */
const CHAT_PATTERNS: { kind: SecretKind; pattern: RegExp }[] = [
  {
    kind: 'private_key',
    pattern:
      /\b(?:private|secret|signing|wallet|my)[ \t]+key\b(?:[ \t]+(?:is|was|=|:)|[ \t]*[:=])?[ \t]*["'`]?(?:0x)?[0-9a-fA-F]{64}(?![0-9a-zA-Z])/gi,
  },
  // Token-like strings of the common providers, looser than the ingest screen's rules (the sweep reports them; no
  // kind here refuses a memory).
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

/**
 * Finds secrets and personal data in a text: everything the ingest screen refuses (private keys with key context,
 * checksum-valid BIP-39 phrases, provider tokens by prefix), plus the chat rules above. Overlapping findings keep
 * the first and longest (a PEM block is one finding). `kinds` limits the scan to those kinds (the refusing callers
 * look for BLOCKING_SECRET_KINDS only).
 */
export function scanForSecrets(
  text: string,
  kinds: readonly SecretKind[] = ['private_key', 'mnemonic', 'api_token', 'email'],
): SecretFinding[] {
  const raw: Omit<SecretFinding, 'line'>[] = [];
  for (const { kind, start, length } of detectSecrets(text))
    if (kinds.includes(kind)) raw.push({ kind, start, length });
  for (const { kind, pattern } of CHAT_PATTERNS) {
    if (!kinds.includes(kind)) continue;
    for (const match of text.matchAll(pattern))
      raw.push({ kind, start: match.index, length: match[0].length });
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
  return redactFindings(text, findings);
}
