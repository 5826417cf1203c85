/**
 * Running a query over a collection: candidate selection (planner), matching with mingo, MongoDB's sort order
 * (BSON type order, arrays by their smallest or largest element), skip/limit, and find-style projection.
 */
import type { Document } from 'bson';
import { Query } from 'mingo';
import { compareBson, pathValues } from '../bsonValues';
import { asMongoError, mongoError } from '../errors';
import type { Collection, ExaminedCounters } from '../catalog/collection';
import { compileEqualityFilter } from './equalityFilter';
import { compileFastProjection } from './fastProjection';

/** The parts of a find, count, update or delete that select documents. */
export interface QuerySpec {
  filter?: Document;
  sort?: Document;
  skip?: number;
  /** 0 or undefined: no limit. */
  limit?: number;
  projection?: Document;
}

/** `$type` aliases mingo can test; others (objectId, binData, timestamp, ...) would silently match nothing. */
const SUPPORTED_TYPES = new Set<unknown>([
  'array',
  'bool',
  'boolean',
  'date',
  'number',
  'int',
  'long',
  'double',
  'decimal',
  'null',
  'object',
  'regex',
  'string',
  1,
  2,
  3,
  4,
  8,
  9,
  10,
  11,
  16,
  18,
  19,
]);

function assertSupportedTypes(value: unknown): void {
  if (Array.isArray(value)) value.forEach(assertSupportedTypes);
  else if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, inner] of Object.entries(value)) {
      if (
        key === '$type' &&
        !(Array.isArray(inner) ? inner : [inner]).every((type) => SUPPORTED_TYPES.has(type))
      ) {
        throw mongoError(
          'CommandNotSupported',
          `$type ${JSON.stringify(inner)} is not supported by the embedded MongoDB engine`,
        );
      }
      assertSupportedTypes(inner);
    }
  }
}

/** A compiled filter; mingo errors become MongoDB BadValue errors. */
export function compileFilter(filter: Document | undefined): (doc: Document) => boolean {
  if (!filter || Object.keys(filter).length === 0) return () => true;
  if ('$text' in filter) {
    throw mongoError('CommandNotSupported', '$text queries are not supported by the embedded MongoDB engine');
  }
  const equality = compileEqualityFilter(filter);
  if (equality) return equality;
  assertSupportedTypes(filter);
  try {
    const query = new Query(filter);
    return (doc) => query.test(doc);
  } catch (error) {
    throw asMongoError(error);
  }
}

function sortValue(doc: Document, field: string, direction: number): unknown {
  const direct = field.includes('.') ? undefined : doc[field];
  if (direct !== undefined && !Array.isArray(direct)) return direct;
  const { values } = pathValues(doc, field);
  if (values.length <= 1) return values[0] ?? null;
  return values.reduce((best, value) => (compareBson(value, best) * direction < 0 ? value : best));
}

/** Validates a sort document and returns its `[field, direction]` pairs. */
export function parseSort(sort: Document | undefined): [string, 1 | -1][] {
  if (!sort) return [];
  return Object.entries(sort).map(([field, direction]) => {
    if (direction === 1 || direction === -1) return [field, direction];
    if (direction === 'asc' || direction === 'ascending') return [field, 1];
    if (direction === 'desc' || direction === 'descending') return [field, -1];
    if (typeof direction === 'object' && direction !== null && '$meta' in direction) {
      throw mongoError('CommandNotSupported', '$meta sort is not supported by the embedded MongoDB engine');
    }
    throw mongoError('BadValue', `$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
  });
}

/** Sorts documents in place by a parsed sort spec (stable, like MongoDB's for equal keys in practice). */
export function sortDocuments(docs: Document[], sort: [string, 1 | -1][]): Document[] {
  if (sort.length === 0) return docs;
  const decorated = docs.map((doc) => ({
    doc,
    keys: sort.map(([field, direction]) => sortValue(doc, field, direction)),
  }));
  decorated.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const order = compareBson(a.keys[i], b.keys[i]);
      if (order !== 0) return order * sort[i][1];
    }
    return 0;
  });
  return decorated.map((entry) => entry.doc);
}

/** MongoDB keeps `_id` as the first field of a projected document. */
function idFirst(doc: Document): Document {
  if (!('_id' in doc) || Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/**
 * Applies a find projection: top-level inclusion or exclusion directly (`fastProjection.ts`), the rest (`$slice`,
 * `$elemMatch`, positional `$`, dotted paths) with mingo.
 */
export function projectDocuments(
  docs: Document[],
  projection: Document | undefined,
  filter: Document | undefined,
): Document[] {
  if (!projection || Object.keys(projection).length === 0 || docs.length === 0) return docs;
  const fast = compileFastProjection(projection);
  if (fast) return docs.map(fast);
  try {
    return new Query(filter ?? {}).find<Document>(docs, projection).all().map(idFirst);
  } catch (error) {
    throw asMongoError(error);
  }
}

/**
 * The documents matching `spec.filter` in result order, skip and limit applied, not projected. Without a sort,
 * a limit stops the scan early. `counters` receives what the access path examined.
 */
export function selectDocuments(
  collection: Collection | undefined,
  spec: QuerySpec,
  counters?: ExaminedCounters,
): Document[] {
  const matches = compileFilter(spec.filter);
  const sort = parseSort(spec.sort);
  // Validated first so a bad filter fails the same way whether or not the collection exists.
  if (!collection) return [];
  const skip = spec.skip ?? 0;
  const limit = spec.limit && spec.limit > 0 ? spec.limit : Infinity;
  const selected: Document[] = [];
  const stopAt = sort.length === 0 ? skip + limit : Infinity;
  for (const doc of collection.candidates(spec.filter ?? {}, counters)) {
    if (!matches(doc)) continue;
    selected.push(doc);
    if (selected.length >= stopAt) break;
  }
  const ordered = sortDocuments(selected, sort);
  return ordered.slice(skip, limit === Infinity ? undefined : skip + limit);
}
