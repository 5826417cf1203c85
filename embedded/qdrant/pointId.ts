import { formatError } from './errors';

/** A Qdrant point id: an unsigned integer or a UUID (kept in canonical lowercase hyphenated form). */
export type PointId = number | string;

const UUID_FORMS = [
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^[0-9a-f]{32}$/i,
  /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  /^\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}$/i,
];

/**
 * Validates an id from a request and returns its canonical form. Qdrant accepts any UUID spelling the Rust
 * `uuid` crate parses and answers with the hyphenated lowercase form; integers must be unsigned. Integers
 * above 2^53 - 1 cannot survive JavaScript's JSON parsing exactly, so they are refused instead of rounded.
 */
export function parsePointId(raw: unknown): PointId {
  if (typeof raw === 'number') {
    if (Number.isInteger(raw) && raw >= 0 && Number.isSafeInteger(raw)) return raw;
    throw formatError(`invalid point id ${raw}: expected an unsigned integer (at most 2^53 - 1) or a UUID`);
  }
  if (typeof raw === 'string' && UUID_FORMS.some((form) => form.test(raw))) {
    const hex = raw
      .replace(/^urn:uuid:/i, '')
      .replace(/[{}-]/g, '')
      .toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  throw formatError(`invalid point id ${JSON.stringify(raw)}: expected an unsigned integer or a UUID`);
}

/** Map key for a canonical id; numbers and UUIDs never collide because UUIDs contain hyphens. */
export function pointKey(id: PointId): string {
  return typeof id === 'number' ? String(id) : id;
}

/** Qdrant's id order (scroll order): every integer id before every UUID, each ascending. */
export function comparePointIds(a: PointId, b: PointId): number {
  if (typeof a === 'number') return typeof b === 'number' ? a - b : -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
