/**
 * A fast path for the update operators most writes use (`$set`, `$inc`, `$max`, `$min`, `$unset`, and `$push`,
 * `$addToSet`, `$pull` in their simple forms, see fastArrayOperators.ts, on plain field paths): applied directly
 * instead of through mingo's updater, which builds a fresh operator context (copying every operator table) on each
 * call — 6-8% of a memory-heavy run's CPU and 15% of an economy purchase's, plus the garbage. Anything it does not
 * handle exactly like MongoDB (positional or numeric path segments, arrays along a path, `_id`, non-numeric `$inc`,
 * an array operator on a field that is not an array, conflicting paths, other operators or forms) answers
 * `undefined`, and the caller uses mingo.
 */
import type { Document } from 'bson';
import { cloneDeep } from 'mingo/util';
import { compareBson } from '../bsonValues';
import { ARRAY_OPERATORS, isPlainObject, planArrayUpdate, type ArrayUpdate } from './fastArrayOperators';

const SCALAR_OPERATORS = new Set(['$set', '$inc', '$max', '$min', '$unset']);

/** One path's change: the operator, the path's segments, its value and, for an array operator, its plan. */
interface Step {
  op: string;
  segments: string[];
  value: unknown;
  array?: ArrayUpdate;
}

/** The path's segments when the fast path may take it: no `$`, no empty or numeric segment, not `_id`. */
function segmentsOf(path: string): string[] | undefined {
  const segments = path.split('.');
  if (segments[0] === '_id') return undefined;
  for (const segment of segments)
    if (segment === '' || segment.startsWith('$') || /^\d+$/.test(segment)) return undefined;
  return segments;
}

/** True when one path equals another or is a prefix of it (MongoDB refuses such updates; mingo reports it). */
function conflicting(paths: string[]): boolean {
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1] || sorted[i].startsWith(`${sorted[i - 1]}.`)) return true;
  }
  return false;
}

/**
 * Applies `operators` to a deep copy of `doc`; answers the copy, `doc` itself when nothing changed, or undefined
 * when the update is not one the fast path takes.
 */
export function applyFastOperators(doc: Document, operators: Document): Document | undefined {
  const steps: Step[] = [];
  for (const [op, fields] of Object.entries(operators)) {
    const isArrayOp = ARRAY_OPERATORS.has(op);
    if ((!isArrayOp && !SCALAR_OPERATORS.has(op)) || !isPlainObject(fields)) return undefined;
    for (const [path, value] of Object.entries(fields)) {
      const segments = segmentsOf(path);
      if (!segments) return undefined;
      if (op === '$inc' && typeof value !== 'number') return undefined;
      const array = isArrayOp ? planArrayUpdate(op, value) : undefined;
      if (isArrayOp && !array) return undefined;
      steps.push({ op, segments, value, array });
    }
  }
  if (conflicting(steps.map((step) => step.segments.join('.')))) return undefined;
  // Check every path before changing anything: a walk into a non-object falls back to mingo (its error or rule).
  for (const { segments, op, value, array } of steps) {
    let at: unknown = doc;
    for (const segment of segments.slice(0, -1)) {
      if (at === undefined) break;
      if (!isPlainObject(at)) return undefined;
      at = at[segment];
    }
    if (at !== undefined && !isPlainObject(at)) return undefined;
    const current = at === undefined ? undefined : (at as Document)[segments[segments.length - 1]];
    if (op === '$inc' && current !== undefined && typeof current !== 'number') return undefined;
    // A field that is not an array goes to mingo, so it behaves as before (MongoDB fails such an update).
    if (array && current !== undefined && !Array.isArray(current)) return undefined;
    if ((op === '$max' || op === '$min') && (value === undefined || current === null)) return undefined;
  }
  const copy = cloneDeep(doc) as Document;
  let changed = false;
  for (const { op, segments, value, array } of steps) {
    const field = segments[segments.length - 1];
    let parent: Document = copy;
    for (const segment of segments.slice(0, -1)) {
      if (parent[segment] === undefined) {
        if (op === '$unset' || op === '$pull') {
          parent = undefined as never;
          break;
        }
        parent[segment] = {};
      }
      parent = parent[segment] as Document;
    }
    if (parent === undefined) continue;
    const has = Object.prototype.hasOwnProperty.call(parent, field);
    const current = parent[field];
    if (array) {
      const next = array(current as unknown[] | undefined);
      if (next) {
        parent[field] = next;
        changed = true;
      }
      continue;
    }
    switch (op) {
      case '$set':
        if (!has || compareBson(current, value) !== 0 || typeof current !== typeof value) {
          parent[field] = cloneDeep(value);
          changed = true;
        }
        break;
      case '$unset':
        if (has) {
          delete parent[field];
          changed = true;
        }
        break;
      case '$inc':
        if (!has || value !== 0) {
          parent[field] = ((current as number | undefined) ?? 0) + (value as number);
          changed = true;
        }
        break;
      default: {
        const better = op === '$max' ? compareBson(value, current) > 0 : compareBson(value, current) < 0;
        if (!has || better) {
          parent[field] = cloneDeep(value);
          changed = true;
        }
      }
    }
  }
  return changed ? copy : doc;
}
