import type { Document } from 'bson';
import { Query } from 'mingo';
import { compileFastProjection } from '../../../embedded/mongo/query/fastProjection';
import { seededRandom } from '../../../platform/seededRandom';

/** Mingo's projection with `_id` moved first, as the engine answered before the fast path. */
function mingoProjection(doc: Document, projection: Document): Document {
  const [projected] = new Query({}).find<Document>([doc], projection).all();
  if (!('_id' in projected)) return projected;
  const { _id, ...rest } = projected;
  return { _id, ...rest };
}

describe('the top-level projection fast path', () => {
  it('keeps the same fields and values as mingo on 3,000 random inclusion and exclusion projections', () => {
    const random = seededRandom(5);
    const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)];
    const names = ['a', 'b', 'c', 'tags', 'nested', 'missing'];
    let compiled = 0;
    for (let round = 0; round < 3_000; round++) {
      const doc: Document = { _id: `id${round}` };
      for (const name of names.slice(0, 5))
        if (random() < 0.7) doc[name] = pick([1, 'x', null, [1, 2], { k: round }, new Date(round), true]);
      const include = random() < 0.5;
      const projection: Document = {};
      for (const name of names)
        if (random() < 0.4) projection[name] = include ? pick([1, true, 5]) : pick([0, false]);
      if (random() < 0.4) projection._id = pick([0, 1, false, true]);
      if (Object.keys(projection).length === 0) continue;
      const fast = compileFastProjection(projection);
      if (!fast) continue;
      compiled++;
      expect({ projection, doc, out: fast(doc) }).toEqual({
        projection,
        doc,
        out: mingoProjection(doc, projection),
      });
    }
    expect(compiled).toBeGreaterThan(2_000);
  });

  it('answers fields in the document order with _id first, as mongod does', () => {
    const project = compileFastProjection({ tier: 1, content: 1 })!;
    expect(Object.keys(project({ _id: 'm1', content: 'hi', subject: 's', tier: 'episodic' }))).toEqual([
      '_id',
      'content',
      'tier',
    ]);
    expect(compileFastProjection({ _id: 0 })!({ _id: 1, a: 2 })).toEqual({ a: 2 });
    expect(compileFastProjection({ _id: 1 })!({ _id: 1, a: 2 })).toEqual({ _id: 1 });
  });

  it('leaves dotted paths, operators, expressions and mixed projections to mingo', () => {
    expect(compileFastProjection({ 'a.b': 1 })).toBeUndefined();
    expect(compileFastProjection({ tags: { $slice: 2 } })).toBeUndefined();
    expect(compileFastProjection({ 'tags.$': 1 })).toBeUndefined();
    expect(compileFastProjection({ a: '$b' })).toBeUndefined();
    expect(compileFastProjection({ a: 1, b: 0 })).toBeUndefined();
  });
});
