import { findKeyMaterial } from './keyMaterial';
import { findMnemonics } from './mnemonics';
import { findProviderTokens } from './providerTokens';
import { lineAt, type RawFinding, type SecretFinding } from './secretFinding';

/**
 * High-confidence secrets in a text, the ones ingestion refuses: private keys with key context (PEM blocks,
 * 32-byte hex values assigned to key-named variables, keystore JSON), BIP-39 seed phrases whose checksum holds, and
 * provider credentials by their known prefixes. Hashes are not secrets: digests in URLs, transaction and block
 * hashes, checksums, lockfile integrity values, git SHAs, `sha256:` image digests and UUIDs are never reported.
 * Overlapping findings keep the first and longest (a PEM block is one finding). Findings carry where, never what.
 */
export function detectSecrets(text: string): SecretFinding[] {
  const raw: RawFinding[] = [...findKeyMaterial(text), ...findMnemonics(text), ...findProviderTokens(text)];
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
export function redactFindings(
  text: string,
  findings: readonly { kind: string; start: number; length: number }[],
): string {
  let out = '';
  let at = 0;
  for (const finding of [...findings].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, finding.start)}[redacted:${finding.kind}]`;
    at = finding.start + finding.length;
  }
  return out + text.slice(at);
}
