/** What the ingest screen refuses: key material, wallet seed phrases and provider credentials. */
export type SecretKind = 'private_key' | 'mnemonic' | 'api_token';

/**
 * One secret found in a text: its kind, the rule that found it (`pem_private_key`, `aws_access_key_id`, …) and
 * where it is. Never the value: findings go into answers and logs.
 */
export interface SecretFinding {
  kind: SecretKind;
  rule: string;
  /** Character offset and length in the scanned text. */
  start: number;
  length: number;
  /** 1-based line of the start. */
  line: number;
}

/** A finding before its line is known. */
export type RawFinding = Omit<SecretFinding, 'line'>;

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The findings in text order, with lines, keeping the first and longest of overlapping ones (a PEM block is one
 * finding, not also the tokens inside it).
 */
export function withoutOverlaps<F extends { start: number; length: number }>(
  text: string,
  raw: F[],
): (F & { line: number })[] {
  raw.sort((a, b) => a.start - b.start || b.length - a.length);
  const kept: (F & { line: number })[] = [];
  let end = -1;
  for (const finding of raw) {
    if (finding.start < end) continue;
    kept.push({ ...finding, line: lineAt(text, finding.start) });
    end = finding.start + finding.length;
  }
  return kept;
}
