import type { Document } from 'bson';
import { Query } from 'mingo';
import { compileEqualityFilter } from '../../../embedded/mongo/query/equalityFilter';
import { seededRandom } from '../../../platform/seededRandom';

describe('the equality filter fast path', () => {
  it('agrees with mingo on 5,000 random equality, $eq and $in filters over scalars, arrays and nested fields', () => {
    const random = seededRandom(11);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const day = new Date(1_700_000_000_000);
    const scalars = ['a', 'b', 'c', '', 0, 1, 2.5, true, false, day, new Date(0)];
    const fields = ['x', 'tags', 'n.v', 'missing'];
    let compiled = 0;
    let matched = 0;
    for (let round = 0; round < 5_000; round++) {
      const doc: Document = { _id: `id${round % 50}`, x: pick([...scalars, null, undefined, [1, 'a']]) };
      if (random() < 0.6) doc.tags = Array.from({ length: Math.floor(random() * 4) }, () => pick(scalars));
      if (random() < 0.5)
        doc.n = random() < 0.3 ? [{ v: pick(scalars) }, { v: pick(scalars) }] : { v: pick(scalars) };
      for (const key of Object.keys(doc)) if (doc[key] === undefined) delete doc[key];
      const filter: Document = {};
      for (const field of [pick(fields), ...(random() < 0.3 ? ['_id'] : [])]) {
        const values =
          field === '_id' ? [`id${round % 7}`, `id${round % 11}`] : [pick(scalars), pick(scalars)];
        const shape = pick(['value', '$eq', '$in', '$inEmpty', '$inOne']);
        filter[field] =
          shape === 'value'
            ? values[0]
            : shape === '$eq'
              ? { $eq: values[0] }
              : { $in: shape === '$inEmpty' ? [] : shape === '$inOne' ? [values[0]] : values };
      }
      const fast = compileEqualityFilter(filter);
      if (!fast) continue;
      compiled++;
      const expected = new Query(filter).test(doc);
      if (expected) matched++;
      expect({ filter, doc, matches: fast(doc) }).toEqual({ filter, doc, matches: expected });
    }
    expect(compiled).toBe(5_000);
    expect(matched).toBeGreaterThan(150);
  });

  it('leaves $in with null, regular expressions or nested documents to mingo', () => {
    expect(compileEqualityFilter({ x: { $in: [null, 'a'] } })).toBeUndefined();
    expect(compileEqualityFilter({ x: { $in: [/a/] } })).toBeUndefined();
    expect(compileEqualityFilter({ x: { $in: [{ k: 1 }] } })).toBeUndefined();
    expect(compileEqualityFilter({ x: { $in: 'a' } })).toBeUndefined();
  });
});
