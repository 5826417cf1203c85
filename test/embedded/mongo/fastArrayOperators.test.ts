import { ObjectId, type Document } from 'bson';
import { Query, update as mingoUpdate } from 'mingo';
import { cloneDeep, isEqual as mingoEqual } from 'mingo/util';
import { compareBson } from '../../../embedded/mongo/bsonValues';
import { applyFastOperators } from '../../../embedded/mongo/query/fastOperators';
import { seededRandom } from '../../../platform/seededRandom';

/** What mingo's updater makes of the same update: the changed copy, or the document itself when nothing changed. */
function viaMingo(doc: Document, operators: Document): Document {
  const copy = cloneDeep(doc) as Document;
  return mingoUpdate(copy, operators, [], {}, { cloneMode: 'deep' }).length === 0 ? doc : copy;
}

const ELEMENTS: unknown[] = [
  1,
  2,
  1.5,
  'a',
  'b',
  '',
  true,
  null,
  new Date(1_000),
  new Date(2_000),
  new ObjectId('65a000000000000000000001'),
  new ObjectId('65a000000000000000000002'),
  { key: 'a', n: 1 },
  { key: 'b', n: 2 },
  { key: 'a', n: 2 },
  { key: ['a', 'c'], n: 3 },
  { n: 1, key: 'a' },
  { key: 'a', sub: { x: 1 } },
  { at: new Date(1_000), id: new ObjectId('65a000000000000000000001') },
  [1, 2],
];

/** `$pull` specs: the fast path takes the first ones; operators, null, regexes, dotted or no fields go to mingo. */
const PULLS: unknown[] = [
  1,
  'a',
  true,
  new Date(1_000),
  new ObjectId('65a000000000000000000001'),
  { key: 'a' },
  { key: 'c' },
  { key: 'a', n: 2 },
  { n: 1 },
  { key: 'none' },
  { at: new Date(1_000) },
  { id: new ObjectId('65a000000000000000000001') },
  null,
  /a/,
  {},
  { 'sub.x': 1 },
  { n: { $gte: 2 } },
  { key: { $in: ['a', 'b'] } },
  [1, 2],
];

const PATHS = ['list', 'o.list', 'tags', 'missing.x', 'text'];

function isPlainDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** mingo's known departures from MongoDB, which the fast path does not share (checked one by one below). */
function mingoDiffers(doc: Document, operators: Document): boolean {
  for (const [op, fields] of Object.entries(operators)) {
    if (op !== '$pull' && op !== '$addToSet') continue;
    for (const [path, spec] of Object.entries(fields as Document)) {
      const current = path.split('.').reduce<unknown>((at, key) => (at as Document | undefined)?.[key], doc);
      if (!Array.isArray(current) && current !== undefined) continue;
      // mingo's $pull looks inside array elements (MongoDB compares them whole) and tests a condition document
      // on elements that are not documents (MongoDB matches documents only).
      if (op === '$pull' && (current ?? []).some(Array.isArray)) return true;
      const others = (current ?? []).filter((element) => !isPlainDocument(element));
      if (op === '$pull' && isPlainDocument(spec) && others.some((v) => new Query(spec).test(v as never)))
        return true;
      if (op !== '$addToSet') continue;
      const values = (spec as Document | null)?.$each ?? [spec];
      const held = current?.length ?? 0;
      const all = [...(current ?? []), ...(values as unknown[])];
      // mingo collapses duplicates already held (or all of $each's on a missing field) and ignores field order.
      for (let i = 0; i < all.length; i++) {
        for (let j = i + 1; j < all.length; j++) {
          const sameToMingo = mingoEqual(all[i], all[j]);
          if (sameToMingo && (j < held || current === undefined)) return true;
          if (sameToMingo !== (compareBson(all[i], all[j]) === 0)) return true;
        }
      }
    }
  }
  return false;
}

describe('the fast array update operators', () => {
  it('agree with mingo on 6,000 random $push, $addToSet and $pull updates, changed or not', () => {
    const random = seededRandom(11);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const list = () => Array.from({ length: Math.floor(random() * 6) }, () => pick(ELEMENTS));
    const taken: Record<string, number> = { $push: 0, $addToSet: 0, $pull: 0 };
    let differs = 0;
    for (let round = 0; round < 6_000; round++) {
      const doc: Document = { _id: round, n: 1, text: 'text' };
      if (random() < 0.8) doc.list = list();
      if (random() < 0.5) doc.o = random() < 0.8 ? { list: list(), m: 1 } : { m: 2 };
      if (random() < 0.3) doc.tags = list();
      const operators: Document = {};
      for (const op of ['$push', '$addToSet', '$pull']) {
        if (random() < 0.45) continue;
        const path = pick(PATHS);
        if (Object.values(operators).some((fields) => path in (fields as Document))) continue;
        const adds = random() < 0.6 ? pick(ELEMENTS) : { $each: list() };
        operators[op] = { [path]: op === '$pull' ? pick(PULLS) : adds };
      }
      if (Object.keys(operators).length === 0) continue;
      // As the economy's swap does: scalar operators beside the array ones.
      if (random() < 0.3) Object.assign(operators, { $inc: { n: 1 }, $set: { 'o.m': round } });
      const fast = applyFastOperators(doc, operators);
      if (fast === undefined) continue;
      if (mingoDiffers(doc, operators)) {
        differs++;
        continue;
      }
      for (const op of Object.keys(taken)) if (op in operators) taken[op]++;
      const expected = viaMingo(doc, operators);
      expect({ operators, changed: fast !== doc }).toEqual({ operators, changed: expected !== doc });
      expect({ doc, operators, fast, order: compareBson(fast, expected) }).toEqual({
        doc,
        operators,
        fast: expected,
        order: 0,
      });
      expect(Object.keys(fast)).toEqual(Object.keys(expected));
    }
    // Most updates take the fast path; the rest (non-arrays, modifiers, query operators, conflicts) go to mingo.
    expect(taken.$push).toBeGreaterThan(1_000);
    expect(taken.$addToSet).toBeGreaterThan(700);
    expect(taken.$pull).toBeGreaterThan(700);
    expect(differs).toBeLessThan(1_500);
  });

  it('push as MongoDB: creates missing arrays and parents, appends, $each of nothing leaves an array alone', () => {
    const line = { key: 'k1', amount: 5, at: new Date(1_000) };
    expect(applyFastOperators({ _id: 1 }, { $push: { pending: line } })).toEqual({ _id: 1, pending: [line] });
    expect(applyFastOperators({ _id: 1 }, { $push: { 'a.b': { $each: [1, 1] } } })).toEqual({
      _id: 1,
      a: { b: [1, 1] },
    });
    expect(applyFastOperators({ _id: 1 }, { $push: { a: { $each: [] } } })).toEqual({ _id: 1, a: [] });
    const doc = { _id: 1, pending: [line] };
    expect(applyFastOperators(doc, { $push: { pending: { $each: [] } } })).toBe(doc);
    expect(applyFastOperators(doc, { $push: { pending: line } })).toEqual({ _id: 1, pending: [line, line] });
    expect(doc.pending).toHaveLength(1);
  });

  it('addToSet as MongoDB: BSON equality with field order, duplicates already there kept, $each deduplicated', () => {
    const doc = { _id: 1, a: [{ x: 1, y: 2 }, 1, 1] };
    expect(applyFastOperators(doc, { $addToSet: { a: { y: 2, x: 1 } } })).toEqual({
      _id: 1,
      a: [{ x: 1, y: 2 }, 1, 1, { y: 2, x: 1 }],
    });
    expect(applyFastOperators(doc, { $addToSet: { a: { x: 1, y: 2 } } })).toBe(doc);
    expect(applyFastOperators(doc, { $addToSet: { a: 2 } })).toEqual({
      _id: 1,
      a: [{ x: 1, y: 2 }, 1, 1, 2],
    });
    expect(applyFastOperators({ _id: 1 }, { $addToSet: { a: { $each: [1, 1, 2] } } })).toEqual({
      _id: 1,
      a: [1, 2],
    });
    const dated = { _id: 1, a: [new Date(5), 1] };
    expect(applyFastOperators(dated, { $addToSet: { a: { $each: [new Date(5), 1.0] } } })).toBe(dated);
  });

  it('pull as MongoDB: every match, nothing when none match, array elements compared whole', () => {
    const doc = {
      _id: 1,
      a: [{ key: 'k', n: 1 }, 5, [5, 6], { key: ['k'] }, [{ key: 'k' }], { key: 'j' }, 5],
    };
    expect(applyFastOperators(doc, { $pull: { a: { key: 'k' } } })).toEqual({
      _id: 1,
      a: [5, [5, 6], [{ key: 'k' }], { key: 'j' }, 5],
    });
    expect(applyFastOperators(doc, { $pull: { a: 5 } })).toEqual({
      _id: 1,
      a: [{ key: 'k', n: 1 }, [5, 6], { key: ['k'] }, [{ key: 'k' }], { key: 'j' }],
    });
    expect(applyFastOperators(doc, { $pull: { a: { key: 'none' } } })).toBe(doc);
    expect(applyFastOperators(doc, { $pull: { 'b.c': 5 } })).toBe(doc);
    expect(applyFastOperators({ _id: 1, b: 1 }, { $pull: { 'b.c': 5 } })).toBeUndefined();
  });

  it('leaves non-arrays, modifiers, query operators, conflicts and positional paths to mingo', () => {
    const doc = { _id: 1, s: 'text', a: [1], list: [{ v: 1 }] };
    expect(applyFastOperators(doc, { $push: { s: 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $addToSet: { s: 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pull: { s: 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: { $each: [2], $slice: -1 } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: { $each: [2], $position: 0 } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: { $each: 2 } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: { $foo: 2 } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pull: { a: { $gte: 1 } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pull: { list: { v: { $in: [1] } } } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pull: { list: {} } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pull: { a: null } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: 2 }, $pull: { a: 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { a: 2 }, $set: { 'a.0': 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { 'list.$.w': 2 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $push: { 'list.w': 2 } })).toBeUndefined();
  });
});
