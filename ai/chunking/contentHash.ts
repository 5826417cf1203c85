import { createHash } from 'node:crypto';

/**
 * Normalises text before hashing so cosmetic differences (CRLF, trailing spaces, extra blank lines, Unicode
 * composition) do not defeat dedup. Case and inner spacing are kept: in code they carry meaning.
 */
export function normaliseForHash(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Hex sha256 of a string, as UTF-8. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Content hash of a chunk or document: hex sha256 of the normalised text. */
export function contentHash(text: string): string {
  return sha256Hex(normaliseForHash(text));
}

/** Stable document id for an (index, source) pair. */
export function documentIdFor(index: string, source: string): string {
  return sha256Hex(`${index}\n${source}`);
}

/** Stable chunk id: the same text in the same document keeps its id across re-ingests. */
export function chunkIdFor(documentId: string, chunkContentHash: string): string {
  return sha256Hex(`${documentId}:${chunkContentHash}`);
}
