/**
 * A fast matcher for the commonest filters, plain equalities (`{ email: "a@b.c", tenant: "t1" }`, `{ n: { $eq: 5 } }`),
 * that avoids building a mingo query per command (mingo copies its operator tables for every Query). It only
 * accepts values whose MongoDB equality is plain BSON comparison with array fan-out: non-null strings, numbers,
 * booleans, dates and ObjectIds on paths without numeric components. Everything else goes to mingo.
 */
import type { Document } from 'bson';
import { compareBson, pathValues } from '../bsonValues';

/** A value MongoDB compares by plain equality in a query or a `$pull`: string, number, boolean, Date, ObjectId. */
export function isPlainEqualityValue(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(value);
    case 'object':
      return (
        value instanceof Date ||
        (value !== null && (value as { _bsontype?: string })._bsontype === 'ObjectId')
      );
    default:
      return false;
  }
}

const NUMERIC_COMPONENT = /(^|\.)\d+(\.|$)/;

/**
 * A matcher for `filter` when it is a conjunction of simple equalities (a value, `$eq`, or `$in` of values: strings
 * by a Set lookup, so `{_id: {$in: [500 ids]}}` does not cost 500 comparisons per document); undefined otherwise.
 */
export function compileEqualityFilter(filter: Document): ((doc: Document) => boolean) | undefined {
  const terms: ((doc: Document) => boolean)[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || NUMERIC_COMPONENT.test(field)) return undefined;
    let values = [condition];
    if (
      typeof condition === 'object' &&
      condition !== null &&
      Object.getPrototypeOf(condition) === Object.prototype
    ) {
      const keys = Object.keys(condition);
      if (keys.length !== 1 || (keys[0] !== '$eq' && keys[0] !== '$in')) return undefined;
      const operand = (condition as Document)[keys[0]];
      if (keys[0] === '$in' && !Array.isArray(operand)) return undefined;
      values = keys[0] === '$in' ? (operand as unknown[]) : [operand];
    }
    if (!values.every(isPlainEqualityValue)) return undefined;
    terms.push(values.length === 1 ? (doc) => fieldEquals(doc, field, values[0]) : fieldIn(field, values));
  }
  return (doc) => terms.every((term) => term(doc));
}

function fieldEquals(doc: Document, field: string, value: unknown): boolean {
  const direct = field.includes('.') ? undefined : doc[field];
  if (direct !== undefined && !Array.isArray(direct)) return compareBson(direct, value) === 0;
  return pathValues(doc, field).values.some(
    (candidate) => candidate !== null && compareBson(candidate, value) === 0,
  );
}

/** `field` equals one of `values` (MongoDB's `$in` of plain values). */
function fieldIn(field: string, values: unknown[]): (doc: Document) => boolean {
  const strings = new Set(values.filter((value) => typeof value === 'string'));
  const others = values.filter((value) => typeof value !== 'string');
  const matches = (candidate: unknown) =>
    typeof candidate === 'string'
      ? strings.has(candidate)
      : candidate !== null && others.some((value) => compareBson(candidate, value) === 0);
  return (doc) => {
    const direct = field.includes('.') ? undefined : doc[field];
    if (direct !== undefined && !Array.isArray(direct)) return matches(direct);
    return pathValues(doc, field).values.some(matches);
  };
}
