import { findKeyMaterial } from './keyMaterial';
import { findMnemonics } from './mnemonics';
import { findProviderTokens } from './providerTokens';
import { withoutOverlaps, type RawFinding, type SecretFinding } from './secretFinding';

/**
 * High-confidence secrets in a text, the ones ingestion refuses: private keys with key context (PEM blocks,
 * 32-byte hex values assigned to key-named variables, keystore JSON), BIP-39 seed phrases whose checksum holds, and
 * provider credentials by their known prefixes. Hashes are not secrets: digests in URLs, transaction and block
 * hashes, checksums, lockfile integrity values, git SHAs, `sha256:` image digests and UUIDs are never reported.
 * Overlapping findings keep the first and longest (a PEM block is one finding). Findings carry where, never what.
 */
export function detectSecrets(text: string): SecretFinding[] {
  const raw: RawFinding[] = [...findKeyMaterial(text), ...findMnemonics(text), ...findProviderTokens(text)];
  return withoutOverlaps(text, raw);
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
