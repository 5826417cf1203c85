/**
 * Index specifications as `createIndexes` receives them and `listIndexes` reports them, their validation, and
 * the extraction of index keys from a document (compound, dotted and multikey fields).
 */
import type { Document } from 'bson';
import { Query } from 'mingo';
import { resolve } from 'mingo/util';
import { pathValues } from '../bsonValues';
import { mongoError } from '../errors';

/** An index as stored in the catalog and returned by `listIndexes`. */
export interface IndexSpec extends Document {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
}

/** The `_id_` index every collection has. */
export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** Index types the engine accepts in a spec but does not maintain (queries needing them fail loudly). */
const UNMAINTAINED_TYPES = new Set(['text']);

/** MongoDB's default index name: `field_1_other_-1`. */
export function defaultIndexName(key: Record<string, unknown>): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(direction)}`)
    .join('_');
}

/** Validates a spec from `createIndexes` and returns it in canonical form (`v: 2`, a name). */
export function normalizeIndexSpec(raw: Document): IndexSpec {
  const key = raw.key as Record<string, number | string> | undefined;
  if (!key || typeof key !== 'object' || Object.keys(key).length === 0) {
    throw mongoError('CannotCreateIndex', 'Index keys cannot be empty.');
  }
  for (const [field, direction] of Object.entries(key)) {
    const numeric = typeof direction === 'number' && direction !== 0;
    const known =
      typeof direction === 'string' && (UNMAINTAINED_TYPES.has(direction) || direction === 'hashed');
    if (!numeric && !known) {
      throw mongoError(
        'CannotCreateIndex',
        `Unknown index plugin '${String(direction)}' on field '${field}'`,
      );
    }
  }
  const name = typeof raw.name === 'string' && raw.name ? raw.name : defaultIndexName(key);
  const { v: _version, key: _key, name: _name, ...options } = raw;
  const spec: IndexSpec = { v: 2, key, name, ...options };
  if (spec.expireAfterSeconds !== undefined) {
    if (typeof spec.expireAfterSeconds !== 'number' || spec.expireAfterSeconds < 0) {
      throw mongoError(
        'InvalidOptions',
        "TTL index 'expireAfterSeconds' option must be a non-negative number",
      );
    }
    if (Object.keys(key).length !== 1) {
      throw mongoError(
        'CannotCreateIndex',
        'TTL indexes are single-field indexes, compound indexes do not support TTL.',
      );
    }
  }
  return spec;
}

/** True when the spec describes an index the engine does not maintain (e.g. `text`). */
export function isUnmaintained(spec: IndexSpec): boolean {
  return Object.values(spec.key).some(
    (direction) => typeof direction === 'string' && UNMAINTAINED_TYPES.has(direction),
  );
}

/** Two specs are the same index when key pattern and the options that change behaviour are equal. */
export function sameIndexOptions(a: IndexSpec, b: IndexSpec): boolean {
  return (
    JSON.stringify(a.key) === JSON.stringify(b.key) &&
    Boolean(a.unique) === Boolean(b.unique) &&
    Boolean(a.sparse) === Boolean(b.sparse) &&
    a.expireAfterSeconds === b.expireAfterSeconds &&
    JSON.stringify(a.partialFilterExpression ?? null) === JSON.stringify(b.partialFilterExpression ?? null)
  );
}

/** Computes the keys a document contributes to an index; `null` when the index skips the document. */
export class IndexKeyExtractor {
  readonly fields: string[];
  private readonly sparse: boolean;
  private readonly partial?: Query;
  /** No field is a dotted path, so a document's own properties hold every key value. */
  private readonly topLevel: boolean;

  constructor(spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.topLevel = this.fields.every((field) => !field.includes('.'));
    this.sparse = Boolean(spec.sparse);
    this.partial = spec.partialFilterExpression ? new Query(spec.partialFilterExpression) : undefined;
  }

  keys(doc: Document): unknown[][] | null {
    if (this.partial && !this.partial.test(doc)) return null;
    if (this.sparse && this.fields.every((field) => resolve(doc, field) === undefined)) return null;
    if (this.fields.length === 1) return this.valuesOf(doc, this.fields[0]).values.map((v) => [v]);
    const single = this.scalarKey(doc);
    if (single) return [single];
    let combos: unknown[][] = [[]];
    const arrayFields: string[] = [];
    for (const field of this.fields) {
      const { values, arrays } = this.valuesOf(doc, field);
      if (arrays > 0) arrayFields.push(field);
      if (arrayFields.length > 1) {
        throw mongoError(
          'CannotIndexParallelArrays',
          `cannot index parallel arrays [${arrayFields[1]}] [${arrayFields[0]}]`,
        );
      }
      combos = combos.flatMap((prefix) => values.map((value) => [...prefix, value]));
    }
    // At most one field has several values, each once (`valuesOf`), so the combinations are distinct.
    return combos;
  }

  /**
   * The one key of a document whose indexed fields are all present, top-level and not arrays (the usual case
   * for a compound index), built directly instead of through the combinations below; null otherwise.
   */
  private scalarKey(doc: Document): unknown[] | null {
    if (!this.topLevel) return null;
    const key = new Array<unknown>(this.fields.length);
    for (let i = 0; i < this.fields.length; i++) {
      const value = doc[this.fields[i]];
      if (value === undefined || Array.isArray(value)) return null;
      key[i] = value;
    }
    return key;
  }

  private valuesOf(doc: Document, field: string): { values: unknown[]; arrays: number } {
    const direct = field.includes('.') ? undefined : doc[field];
    if (direct !== undefined && !Array.isArray(direct)) return { values: [direct], arrays: 0 };
    const found = pathValues(doc, field);
    return { values: uniqueValues(found.values.map((value) => value ?? null)), arrays: found.arrays };
  }
}

/**
 * An array field's values, each once (`tags: ['a', 'a']` is one index key): primitives by identity, dates by time,
 * other values (documents, ObjectIds, binaries) by their JSON text. Keys used to be deduplicated as whole JSON
 * tuples, which stringified every key of a multikey document (a date in each), and took a date for the string of
 * its ISO text.
 */
function uniqueValues(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  const primitives = new Set<unknown>();
  let others: Set<string> | undefined;
  const unique: unknown[] = [];
  for (const value of values) {
    if (value === null || typeof value !== 'object') {
      if (primitives.has(value)) continue;
      primitives.add(value);
    } else {
      const text = value instanceof Date ? `date:${value.getTime()}` : `json:${JSON.stringify(value)}`;
      others ??= new Set();
      if (others.has(text)) continue;
      others.add(text);
    }
    unique.push(value);
  }
  return unique;
}
