/**
 * The array half of the update fast path (see fastOperators.ts): `$push` and `$addToSet` of one value or of `$each`
 * without modifiers, and `$pull` by an equality value or by equality conditions on an element's plain fields. Each
 * spec becomes an `ArrayUpdate`; a spec it does not take exactly as MongoDB does (modifiers, operator or empty
 * conditions, null, regular expressions, arrays or documents as values to pull) answers undefined, and the caller
 * uses mingo. Where mingo and MongoDB disagree (below), these follow MongoDB.
 */
import type { Document } from 'bson';
import { isPlainEqualityValue } from './equalityFilter';
import { cloneDeep } from 'mingo/util';
import { compareBson } from '../bsonValues';

/** The update operators this module applies. */
export const ARRAY_OPERATORS = new Set(['$push', '$addToSet', '$pull']);

/**
 * Applies one operator to an array field's value (undefined when the field is missing): answers the new array, or
 * undefined when the field does not change. Never changes `current`.
 */
export type ArrayUpdate = (current: unknown[] | undefined) => unknown[] | undefined;

/** Plain object (not an array, Date, ObjectId, Binary, …): the only kind of value a fast path walks into. */
export function isPlainObject(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Equal in BSON order: numbers by value across types, documents field by field in their order (as MongoDB). */
function bsonEqual(a: unknown, b: unknown): boolean {
  return compareBson(a, b) === 0;
}

/** The values a `$push`/`$addToSet` spec adds: itself, or its `$each` when that is its only `$` field. */
function valuesToAdd(spec: unknown): unknown[] | undefined {
  if (spec === undefined) return undefined;
  if (!isPlainObject(spec)) return [spec];
  const keys = Object.keys(spec);
  if (!keys.some((key) => key.startsWith('$'))) return [spec];
  // Modifiers ($slice, $sort, $position) and misspelt clauses are mingo's (or its error).
  if (keys.length !== 1 || keys[0] !== '$each' || !Array.isArray(spec.$each)) return undefined;
  return spec.$each.includes(undefined) ? undefined : (spec.$each as unknown[]);
}

/**
 * `$push`: appends every value; a missing field becomes the array of them (`$each: []` creates an empty array and
 * leaves an existing one unchanged).
 */
function push(values: unknown[]): ArrayUpdate {
  return (current) => {
    if (current === undefined) return cloneDeep(values) as unknown[];
    return values.length === 0 ? undefined : [...current, ...(cloneDeep(values) as unknown[])];
  };
}

/**
 * `$addToSet`: appends each value no element equals in BSON order (including one appended just before), as
 * MongoDB does. mingo differs: it compares documents regardless of field order, collapses duplicates already in
 * the array (and then reports no change), and keeps duplicates inside `$each` when the field is missing.
 */
function addToSet(values: unknown[]): ArrayUpdate {
  return (current) => {
    const next = current === undefined ? [] : [...current];
    for (const value of values) {
      if (!next.some((element) => bsonEqual(element, value))) next.push(cloneDeep(value));
    }
    return current === undefined || next.length !== current.length ? next : undefined;
  };
}

/**
 * The element test of a `$pull` spec, when it is one the fast path takes: a scalar (elements equal to it) or a
 * document of scalar conditions on plain fields (document elements whose field equals the value or is an array
 * holding it, as a query matches). Unlike mingo, and as MongoDB, an element that is itself an array matches
 * neither: mingo looks inside it.
 */
function pullCondition(spec: unknown): ((element: unknown) => boolean) | undefined {
  if (isPlainEqualityValue(spec)) return (element) => bsonEqual(element, spec);
  if (!isPlainObject(spec)) return undefined;
  const conditions = Object.entries(spec);
  if (conditions.length === 0) return undefined;
  for (const [field, value] of conditions) {
    if (field === '' || field.startsWith('$') || field.includes('.') || !isPlainEqualityValue(value))
      return undefined;
  }
  const fieldMatches = (actual: unknown, wanted: unknown): boolean =>
    bsonEqual(actual, wanted) || (Array.isArray(actual) && actual.some((inner) => bsonEqual(inner, wanted)));
  return (element) =>
    isPlainObject(element) && conditions.every(([field, wanted]) => fieldMatches(element[field], wanted));
}

/** `$pull`: removes every element the condition matches; a missing field stays missing. */
function pull(matches: (element: unknown) => boolean): ArrayUpdate {
  return (current) => {
    if (current === undefined) return undefined;
    const kept = current.filter((element) => !matches(element));
    return kept.length === current.length ? undefined : kept;
  };
}

/** The `ArrayUpdate` of `op` with `spec` (the value given for one path), or undefined when mingo must apply it. */
export function planArrayUpdate(op: string, spec: unknown): ArrayUpdate | undefined {
  if (op === '$pull') {
    const matches = pullCondition(spec);
    return matches && pull(matches);
  }
  const values = valuesToAdd(spec);
  if (!values) return undefined;
  return op === '$push' ? push(values) : addToSet(values);
}
