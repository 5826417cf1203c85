import { unsupported, wrongInput } from '../errors';
import { isPlainObject, parseKeyPath, valuesAtPath, type Payload } from '../payload';
import { parsePointId, pointKey, type PointId } from '../pointId';
import type { Condition, FieldCondition, Filter, Match, Range } from '../schemas/filterSchema';
import { matchesText, type TextIndexOptions } from './textMatch';

/** What a filter looks at: a point's id, its payload and which named vectors it has. */
export interface FilterTarget {
  id: PointId;
  payload: Payload;
  hasVector(name: string): boolean;
}

/** A compiled filter. */
export type PointPredicate = (target: FilterTarget) => boolean;

/** Collection facts a filter needs: full-text index options per payload key and the known vector names. */
export interface FilterContext {
  textIndex(key: string): TextIndexOptions | undefined;
  vectorNames: ReadonlySet<string>;
}

/**
 * Compiles a Qdrant filter into a predicate, once per request. All validation (ids, key paths, unsupported
 * conditions) happens here, so a bad filter fails before any point is read.
 */
export function compileFilter(filter: Filter, context: FilterContext, nestedIn?: string): PointPredicate {
  const must = clauseList(filter.must).map((c) => compileCondition(c, context, nestedIn));
  const should = clauseList(filter.should).map((c) => compileCondition(c, context, nestedIn));
  const mustNot = clauseList(filter.must_not).map((c) => compileCondition(c, context, nestedIn));
  const minShould = filter.min_should
    ? {
        count: filter.min_should.min_count,
        conditions: filter.min_should.conditions.map((c) => compileCondition(c, context, nestedIn)),
      }
    : undefined;
  return (target) => {
    for (const test of must) if (!test(target)) return false;
    for (const test of mustNot) if (test(target)) return false;
    if (should.length > 0 && !should.some((test) => test(target))) return false;
    if (minShould) {
      let satisfied = 0;
      for (const test of minShould.conditions) if (test(target) && ++satisfied >= minShould.count) break;
      if (satisfied < minShould.count) return false;
    }
    return true;
  };
}

function clauseList(clause: Condition | Condition[] | null | undefined): Condition[] {
  if (clause === null || clause === undefined) return [];
  return Array.isArray(clause) ? clause : [clause];
}

function compileCondition(condition: Condition, context: FilterContext, nestedIn?: string): PointPredicate {
  if ('has_id' in condition) {
    if (nestedIn !== undefined)
      throw wrongInput(`has_id is not allowed inside nested filter \`${nestedIn}\``);
    const ids = new Set(condition.has_id.map((raw) => pointKey(parsePointId(raw))));
    return (target) => ids.has(pointKey(target.id));
  }
  if ('has_vector' in condition) {
    if (!context.vectorNames.has(condition.has_vector)) {
      throw wrongInput(`Not existing vector name error: ${condition.has_vector}`);
    }
    return (target) => target.hasVector(condition.has_vector);
  }
  if ('nested' in condition) {
    const { key, filter } = condition.nested;
    const path = parseKeyPath(key.endsWith('[]') ? key.slice(0, -2) : key);
    const inner = compileFilter(filter, context, key);
    return (target) =>
      valuesAtPath(target.payload, path).some(
        (element) => isPlainObject(element) && inner({ ...target, payload: element }),
      );
  }
  if ('key' in condition) return compileFieldCondition(condition, context);
  if ('is_empty' in condition) return isEmptyPredicate(condition.is_empty.key);
  if ('is_null' in condition) return isNullPredicate(condition.is_null.key);
  return compileFilter(condition, context, nestedIn);
}

function compileFieldCondition(condition: FieldCondition, context: FilterContext): PointPredicate {
  if (condition.geo_bounding_box || condition.geo_radius || condition.geo_polygon) {
    throw unsupported('geo filtering');
  }
  const path = parseKeyPath(condition.key);
  const tests: PointPredicate[] = [];
  if (condition.match) tests.push(matchPredicate(condition.key, condition.match, context));
  if (condition.range) tests.push(rangePredicate(condition.key, condition.range));
  if (condition.values_count) {
    const bounds = condition.values_count;
    tests.push((target) => withinBounds(valuesAtPath(target.payload, path).length, bounds));
  }
  if (condition.is_empty !== null && condition.is_empty !== undefined) {
    const isEmpty = isEmptyPredicate(condition.key);
    const expected = condition.is_empty;
    tests.push((target) => isEmpty(target) === expected);
  }
  if (condition.is_null !== null && condition.is_null !== undefined) {
    const isNull = isNullPredicate(condition.key);
    const expected = condition.is_null;
    tests.push((target) => isNull(target) === expected);
  }
  if (tests.length === 0) throw wrongInput(`field condition on \`${condition.key}\` has no condition`);
  return (target) => tests.every((test) => test(target));
}

function matchPredicate(key: string, match: Match, context: FilterContext): PointPredicate {
  const path = parseKeyPath(key);
  const values = (target: FilterTarget) => valuesAtPath(target.payload, path);
  if ('value' in match) {
    const wanted = match.value;
    return (target) => values(target).some((value) => value === wanted);
  }
  if ('any' in match) {
    const wanted = new Set<unknown>(match.any);
    return (target) => values(target).some((value) => wanted.has(value));
  }
  if ('except' in match) {
    const excluded = new Set<unknown>(match.except);
    return (target) => {
      const present = values(target);
      return present.length === 0 || present.some((value) => !excluded.has(value));
    };
  }
  if ('prefix' in match) throw unsupported('match.prefix');
  const [query, mode] =
    'text' in match
      ? [match.text, 'all' as const]
      : 'text_any' in match
        ? [match.text_any, 'any' as const]
        : [match.phrase, 'phrase' as const];
  const index = context.textIndex(key);
  if (mode === 'phrase' && !index) throw wrongInput(`phrase match on \`${key}\` requires a text index`);
  return (target) =>
    values(target).some((value) => typeof value === 'string' && matchesText(value, query, mode, index));
}

type Bounds = {
  lt?: number | string | null;
  gt?: number | string | null;
  gte?: number | string | null;
  lte?: number | string | null;
};

function rangePredicate(key: string, range: Range): PointPredicate {
  const path = parseKeyPath(key);
  const isDatetime = [range.lt, range.gt, range.gte, range.lte].some((bound) => typeof bound === 'string');
  if (!isDatetime) {
    return (target) =>
      valuesAtPath(target.payload, path).some(
        (value) => typeof value === 'number' && withinBounds(value, range),
      );
  }
  const asTime = (bound: number | string | null | undefined) =>
    bound === null || bound === undefined ? undefined : parseDatetime(bound, key);
  const bounds: Bounds = {
    lt: asTime(range.lt),
    gt: asTime(range.gt),
    gte: asTime(range.gte),
    lte: asTime(range.lte),
  };
  return (target) =>
    valuesAtPath(target.payload, path).some((value) => {
      if (typeof value !== 'string') return false;
      const time = Date.parse(value);
      return !Number.isNaN(time) && withinBounds(time, bounds);
    });
}

function parseDatetime(bound: number | string, key: string): number {
  const time = typeof bound === 'number' ? bound : Date.parse(bound);
  if (Number.isNaN(time)) throw wrongInput(`range on \`${key}\`: \`${bound}\` is not an RFC 3339 datetime`);
  return time;
}

function withinBounds(value: number, bounds: Bounds): boolean {
  const { lt, gt, gte, lte } = bounds;
  if (typeof lt === 'number' && !(value < lt)) return false;
  if (typeof gt === 'number' && !(value > gt)) return false;
  if (typeof lte === 'number' && !(value <= lte)) return false;
  if (typeof gte === 'number' && !(value >= gte)) return false;
  return true;
}

/** Qdrant's is_empty: the key is missing, null, or an empty array. */
function isEmptyPredicate(key: string): PointPredicate {
  const path = parseKeyPath(key);
  return (target) => valuesAtPath(target.payload, path).every((value) => value === null);
}

/** Qdrant's is_null: the key is present and null (an array holding null counts). */
function isNullPredicate(key: string): PointPredicate {
  const path = parseKeyPath(key);
  return (target) => valuesAtPath(target.payload, path).some((value) => value === null);
}
