/**
 * Query planning: picks the access path for a filter. An equality (or `$in`) on `_id` reads the primary map;
 * otherwise the complete index with the longest equality prefix, then an index whose first field has a range;
 * otherwise a collection scan. Candidates are always re-checked against the full filter, so a plan only has to
 * return a superset of the matches.
 */
import type { Document } from 'bson';
import { idKey, typeRank } from '../bsonValues';
import { mongoError } from '../errors';
import type { CollectionIndex, FirstFieldRange } from '../catalog/collectionIndex';

/** Where candidate documents come from. */
export type QueryPlan = { kind: 'ids'; ids: Iterable<string>; index: string } | { kind: 'scan' };

/** Above this many equality combinations a compound `$in` lookup is not worth it. */
const MAX_COMBINATIONS = 1000;

function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function isOperatorObject(value: unknown): value is Document {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$');
}

function equalityValue(value: unknown): boolean {
  return !Array.isArray(value) && !(value instanceof RegExp) && !isOperatorObject(value);
}

/** The values a condition requires a field to equal, or undefined when it is not an equality. */
function equalityValues(condition: unknown): unknown[] | undefined {
  if (!isOperatorObject(condition)) return equalityValue(condition) ? [condition] : undefined;
  if ('$eq' in condition && equalityValue(condition.$eq)) return [condition.$eq];
  if (Array.isArray(condition.$in) && condition.$in.every(equalityValue)) return condition.$in;
  return undefined;
}

/** Smallest value of the BSON types range scans support, for scans with only an upper bound. */
function typeFloor(value: unknown): unknown {
  if (typeof value === 'number') return -Infinity;
  if (typeof value === 'string') return '';
  if (value instanceof Date) return new Date(-8.64e15);
  return undefined;
}

function rangeOf(condition: unknown): FirstFieldRange | undefined {
  if (!isOperatorObject(condition)) return undefined;
  const lower = condition.$gt ?? condition.$gte;
  const upper = condition.$lt ?? condition.$lte;
  const bound = lower ?? upper;
  if (bound === undefined || typeFloor(bound) === undefined) return undefined;
  if (lower !== undefined && upper !== undefined && typeRank(lower) !== typeRank(upper)) return { lower };
  return { lower, upper };
}

/** Top-level field conditions, including those of a top-level `$and`. */
function fieldConditions(filter: Document): Map<string, unknown> {
  const conditions = new Map<string, unknown>();
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$text') {
      throw mongoError(
        'CommandNotSupported',
        '$text queries are not supported by the embedded MongoDB engine',
      );
    }
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition) {
        if (!isPlainObject(clause)) continue;
        for (const [inner, value] of Object.entries(clause))
          if (!conditions.has(inner)) conditions.set(inner, value);
      }
    } else if (!field.startsWith('$')) {
      conditions.set(field, condition);
    }
  }
  return conditions;
}

function combinations(lists: unknown[][]): unknown[][] | undefined {
  let combos: unknown[][] = [[]];
  for (const values of lists) {
    combos = combos.flatMap((prefix) => values.map((value) => [...prefix, value]));
    if (combos.length > MAX_COMBINATIONS) return undefined;
  }
  return combos;
}

/** Chooses how to find the candidates for `filter` given the collection's indexes. */
export function planQuery(filter: Document, indexes: Iterable<CollectionIndex>): QueryPlan {
  const conditions = fieldConditions(filter);
  if (conditions.size === 0) return { kind: 'scan' };
  const ids = conditions.has('_id') ? equalityValues(conditions.get('_id')) : undefined;
  if (ids) return { kind: 'ids', ids: ids.map(idKey), index: '_id_' };

  let best: { index: CollectionIndex; prefix: unknown[][] } | undefined;
  let ranged: { index: CollectionIndex; range: FirstFieldRange } | undefined;
  for (const index of indexes) {
    if (!index.maintained || !index.complete) continue;
    const prefix: unknown[][] = [];
    for (const field of index.fields) {
      const values = conditions.has(field) ? equalityValues(conditions.get(field)) : undefined;
      if (!values) break;
      prefix.push(values);
    }
    if (prefix.length > 0 && prefix.length > (best?.prefix.length ?? 0)) best = { index, prefix };
    if (prefix.length === 0 && !ranged) {
      const range = rangeOf(conditions.get(index.fields[0]));
      if (range) ranged = { index, range };
    }
  }
  if (best) {
    const combos = combinations(best.prefix);
    if (combos) {
      const found = new Set<string>();
      for (const combo of combos) best.index.idsWithPrefix(combo, found);
      return { kind: 'ids', ids: found, index: best.index.spec.name };
    }
  }
  if (ranged) {
    const found = new Set<string>();
    const bound = ranged.range.lower ?? ranged.range.upper;
    ranged.index.idsInRange(ranged.range, typeFloor(bound), found);
    return { kind: 'ids', ids: found, index: ranged.index.spec.name };
  }
  return { kind: 'scan' };
}
