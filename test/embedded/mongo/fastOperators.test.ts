import type { Document } from 'bson';
import { update as mingoUpdate } from 'mingo';
import { cloneDeep } from 'mingo/util';
import { compareBson } from '../../../embedded/mongo/bsonValues';
import { applyFastOperators } from '../../../embedded/mongo/query/fastOperators';
import { seededRandom } from '../../../platform/seededRandom';

/** What mingo's updater makes of the same update: the changed copy, or the document itself when nothing changed. */
function viaMingo(doc: Document, operators: Document): Document {
  const copy = cloneDeep(doc) as Document;
  return mingoUpdate(copy, operators, [], {}, { cloneMode: 'deep' }).length === 0 ? doc : copy;
}

describe('the fast update operators', () => {
  it('agree with mingo on 3,000 random $set, $inc, $max, $min and $unset updates, changed or not', () => {
    const random = seededRandom(7);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const paths = ['a', 'b', 'n', 'c.d', 'c.e', 'x.y.z', 'when'];
    const values = [0, 1, 2.5, -3, 'text', '', true, null, new Date(1_700_000_000_000), { k: 1 }];
    let taken = 0;
    for (let round = 0; round < 3_000; round++) {
      const doc: Document = { _id: round, a: pick([1, 'one', undefined]), n: pick([5, 0, undefined]) };
      if (random() < 0.5) doc.c = { d: pick(values), e: 3 };
      if (random() < 0.3) doc.when = new Date(1_600_000_000_000);
      for (const key of Object.keys(doc)) if (doc[key] === undefined) delete doc[key];
      const operators: Document = {};
      for (const op of ['$set', '$inc', '$max', '$min', '$unset']) {
        if (random() < 0.5) continue;
        const path = pick(paths);
        if (Object.values(operators).some((fields) => path in (fields as Document))) continue;
        operators[op] = {
          [path]: op === '$inc' ? pick([0, 1, -2, 0.5]) : op === '$unset' ? '' : pick(values),
        };
      }
      if (Object.keys(operators).length === 0) continue;
      const fast = applyFastOperators(doc, operators);
      if (fast === undefined) continue;
      taken++;
      const expected = viaMingo(doc, operators);
      expect({ operators, changed: fast !== doc }).toEqual({ operators, changed: expected !== doc });
      expect(compareBson(fast, expected)).toBe(0);
      expect(Object.keys(fast)).toEqual(Object.keys(expected));
    }
    // Most updates take the fast path; the rest (conflicts, walks into non-objects, $inc on text) go to mingo.
    expect(taken).toBeGreaterThan(1_500);
  });

  it('leaves positional paths, array indexes, _id, arrays along a path and conflicts to mingo', () => {
    const doc = { _id: 1, list: [{ v: 1 }], o: { p: 1 }, s: 'text' };
    expect(applyFastOperators(doc, { $set: { 'list.$.v': 2 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $set: { 'list.0.v': 2 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $set: { 'list.v': 2 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $set: { _id: 2 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $set: { o: 1 }, $inc: { 'o.p': 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $inc: { s: 1 } })).toBeUndefined();
    expect(applyFastOperators(doc, { $pop: { list: 1 } })).toBeUndefined();
    // The stored document is never changed.
    expect(applyFastOperators(doc, { $set: { 'o.p': 2 } })).toEqual({ ...doc, o: { p: 2 } });
    expect(doc.o.p).toBe(1);
  });
});
