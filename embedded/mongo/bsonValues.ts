/**
 * Value semantics MongoDB applies across BSON types: the total order used by sorts and indexes, canonical keys
 * for `_id` lookups, dotted-path value extraction with array fan-out, and the shell-style rendering used in
 * duplicate-key messages.
 */
import { EJSON, type Document } from 'bson';

type BsonTagged = { _bsontype?: string };

function bsonType(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as BsonTagged)._bsontype : undefined;
}

/** MongoDB's cross-type sort order (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/). */
export function typeRank(value: unknown): number {
  if (value === null || value === undefined) return 2;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
  }
  if (Array.isArray(value)) return 6;
  if (value instanceof Date) return 10;
  if (value instanceof RegExp) return 12;
  switch (bsonType(value)) {
    case 'MinKey':
      return 1;
    case 'Long':
    case 'Decimal128':
    case 'Int32':
    case 'Double':
      return 3;
    case 'BSONSymbol':
      return 4;
    case 'Binary':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'MaxKey':
      return 13;
    case 'Code':
      return 14;
  }
  return 5;
}

function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return Number(String(value));
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/** Compares two BSON values in MongoDB's order; returns -1, 0 or 1. Missing and null compare equal. */
export function compareBson(a: unknown, b: unknown): number {
  const rankA = typeRank(a);
  const rankB = typeRank(b);
  if (rankA !== rankB) return sign(rankA - rankB);
  switch (rankA) {
    case 1:
    case 2:
    case 13:
      return 0;
    case 3: {
      const x = toNumber(a);
      const y = toNumber(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4: {
      const x = String(a);
      const y = String(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 5:
      return compareDocuments(a as Document, b as Document);
    case 6:
      return compareArrays(a as unknown[], b as unknown[]);
    case 7: {
      const x = (a as { buffer: Uint8Array }).buffer;
      const y = (b as { buffer: Uint8Array }).buffer;
      return x.length !== y.length ? sign(x.length - y.length) : Buffer.compare(x, y);
    }
    case 8:
      return compareObjectIds(a, b);
    case 9:
      return sign(Number(a) - Number(b));
    case 10:
      return sign((a as Date).getTime() - (b as Date).getTime());
    case 11:
      return (a as { compare(other: unknown): number }).compare(b);
    default: {
      const x = String(a);
      const y = String(b);
      return x < y ? -1 : x > y ? 1 : 0;
    }
  }
}

/** How bson 7 holds an ObjectId: its 12 bytes as four big-endian 24-bit words. */
interface ObjectIdWords {
  i0: number;
  i1: number;
  i2: number;
  i3: number;
}

function hasWords(value: unknown): value is ObjectIdWords {
  return typeof (value as Partial<ObjectIdWords>).i3 === 'number';
}

/**
 * ObjectIds in byte order. Comparing bson's words gives that order without the two 12-byte copies the `id` getter
 * makes per comparison (index descents compare a dozen times); other representations compare their bytes.
 */
function compareObjectIds(a: unknown, b: unknown): number {
  if (hasWords(a) && hasWords(b)) {
    return sign(a.i0 - b.i0) || sign(a.i1 - b.i1) || sign(a.i2 - b.i2) || sign(a.i3 - b.i3);
  }
  return Buffer.compare((a as { id: Uint8Array }).id, (b as { id: Uint8Array }).id);
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const order = compareBson(a[i], b[i]);
    if (order !== 0) return order;
  }
  return sign(a.length - b.length);
}

function compareDocuments(a: Document, b: Document): number {
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  const length = Math.min(keysA.length, keysB.length);
  for (let i = 0; i < length; i++) {
    const rank = sign(typeRank(a[keysA[i]]) - typeRank(b[keysB[i]]));
    if (rank !== 0) return rank;
    if (keysA[i] !== keysB[i]) return keysA[i] < keysB[i] ? -1 : 1;
    const order = compareBson(a[keysA[i]], b[keysB[i]]);
    if (order !== 0) return order;
  }
  return sign(keysA.length - keysB.length);
}

/** A string that is equal for two `_id` values exactly when MongoDB considers them the same key. */
export function idKey(id: unknown): string {
  if (typeof id === 'string') return `s${id}`;
  if (typeof id === 'number') return `n${id === 0 ? 0 : id}`;
  if (bsonType(id) === 'ObjectId') return `o${(id as { toHexString(): string }).toHexString()}`;
  if (id instanceof Date) return `d${id.getTime()}`;
  if (id === null || id === undefined) return 'z';
  return `j${EJSON.stringify(id as Document, { relaxed: true })}`;
}

const DIGITS = /^\d+$/;

/**
 * The values a dotted `path` reaches in `doc`, fanning out over arrays as MongoDB's multikey indexes and sorts do:
 * a terminal array contributes its elements, a missing field contributes `null`. `arrays` counts the arrays
 * crossed, so callers can reject parallel arrays.
 */
export function pathValues(doc: unknown, path: string): { values: unknown[]; arrays: number } {
  const out: unknown[] = [];
  const state = { arrays: 0 };
  collect(doc, path.split('.'), 0, out, state);
  return { values: out, arrays: state.arrays };
}

function collect(
  value: unknown,
  parts: string[],
  i: number,
  out: unknown[],
  state: { arrays: number },
): void {
  if (i === parts.length) {
    if (Array.isArray(value)) {
      state.arrays += 1;
      if (value.length === 0) out.push(undefined);
      else out.push(...value);
    } else {
      out.push(value ?? null);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (DIGITS.test(parts[i])) {
      collect(value[Number(parts[i])], parts, i + 1, out, state);
      return;
    }
    state.arrays += 1;
    if (value.length === 0) out.push(null);
    for (const element of value) collect(element, parts, i, out, state);
    return;
  }
  if (value !== null && typeof value === 'object' && typeOfPlain(value)) {
    collect((value as Document)[parts[i]], parts, i + 1, out, state);
    return;
  }
  out.push(null);
}

function typeOfPlain(value: object): boolean {
  return bsonType(value) === undefined && !(value instanceof Date) && !(value instanceof RegExp);
}

/** Renders a value the way the MongoDB server prints it in error messages (`{ email: "a@b.c" }`). */
export function formatValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return String(value);
  const type = bsonType(value);
  if (type === 'ObjectId') return `ObjectId('${(value as { toHexString(): string }).toHexString()}')`;
  if (type !== undefined) return String(value);
  const entries = Object.entries(value as Document).map(([key, inner]) => `${key}: ${formatValue(inner)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}
