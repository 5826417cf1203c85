import type { Schemas } from '@qdrant/js-client-rest';
import { openQdrantTarget, qdrantError, type QdrantTarget } from './qdrantTarget';

type Filter = Schemas['Filter'];

const people = [
  {
    id: 1,
    payload: {
      name: 'Ada',
      age: 36,
      city: 'London',
      tags: ['math', 'code'],
      bio: 'Wrote the first program',
      address: { zip: 'N1' },
      pets: [{ kind: 'cat', age: 3 }],
      born: '1815-12-10T00:00:00Z',
    },
  },
  {
    id: 2,
    payload: {
      name: 'Alan',
      age: 41,
      city: 'London',
      tags: ['code'],
      bio: 'Broke codes and built machines',
      address: { zip: 'SW1' },
      pets: [
        { kind: 'dog', age: 9 },
        { kind: 'cat', age: 1 },
      ],
      born: '1912-06-23T00:00:00Z',
    },
  },
  {
    id: 3,
    payload: {
      name: 'Grace',
      age: 85,
      city: 'New York',
      tags: ['navy', 'code'],
      bio: 'Found the first actual bug',
      address: { zip: '10001' },
      nickname: null,
      born: '1906-12-09T00:00:00Z',
    },
  },
  {
    id: 4,
    payload: {
      name: 'Edsger',
      age: 72,
      city: 'Austin',
      tags: [],
      bio: 'Considered goto harmful',
      pets: [{ kind: 'dog', age: 2 }],
    },
  },
  { id: 5, payload: { name: 'Barbara', age: 84, city: 'Boston' } },
];

describe('embedded qdrant: filters', () => {
  let target: QdrantTarget;
  let name: string;

  async function matchingIds(filter: Filter): Promise<(string | number)[]> {
    const { points } = await target.client.scroll(name, { filter, limit: 100, with_payload: false });
    return points.map((point) => point.id);
  }

  beforeAll(async () => {
    target = await openQdrantTarget();
    name = target.collectionName('filters');
    await target.client.createCollection(name, { vectors: { size: 2, distance: 'Cosine' } });
    await target.client.createPayloadIndex(name, { field_name: 'bio', field_schema: 'text', wait: true });
    await target.client.createPayloadIndex(name, { field_name: 'city', field_schema: 'keyword', wait: true });
    await target.client.upsert(name, {
      wait: true,
      points: people.map((person) => ({ ...person, vector: [person.id, 1] })),
    });
  });

  afterAll(async () => {
    await target.close();
  });

  it.each<[string, Filter, (string | number)[]]>([
    ['match value (indexed keyword)', { must: [{ key: 'city', match: { value: 'London' } }] }, [1, 2]],
    ['match value on an array field', { must: [{ key: 'tags', match: { value: 'navy' } }] }, [3]],
    ['match any', { must: [{ key: 'city', match: { any: ['Austin', 'Boston'] } }] }, [4, 5]],
    ['match except', { must: [{ key: 'city', match: { except: ['London', 'New York'] } }] }, [4, 5]],
    [
      'full-text match (all words, any order)',
      { must: [{ key: 'bio', match: { text: 'first the' } }] },
      [1, 3],
    ],
    ['range', { must: [{ key: 'age', range: { gte: 41, lt: 84 } }] }, [2, 4]],
    ['datetime range', { must: [{ key: 'born', range: { lt: '1910-01-01T00:00:00Z' } }] }, [1, 3]],
    ['has_id', { must: [{ has_id: [5, 2, 99] }] }, [2, 5]],
    ['is_empty (missing or empty array)', { must: [{ is_empty: { key: 'tags' } }] }, [4, 5]],
    ['is_null', { must: [{ is_null: { key: 'nickname' } }] }, [3]],
    ['nested key with dot notation', { must: [{ key: 'address.zip', match: { value: 'SW1' } }] }, [2]],
    ['array projection', { must: [{ key: 'pets[].kind', match: { value: 'dog' } }] }, [2, 4]],
    [
      'should (any of)',
      {
        should: [
          { key: 'age', range: { gt: 80 } },
          { key: 'name', match: { value: 'Ada' } },
        ],
      },
      [1, 3, 5],
    ],
    ['must_not', { must_not: [{ key: 'city', match: { value: 'London' } }] }, [3, 4, 5]],
    [
      'must + should + must_not together',
      {
        must: [{ key: 'tags', match: { value: 'code' } }],
        should: [
          { key: 'age', range: { lt: 40 } },
          { key: 'city', match: { value: 'New York' } },
        ],
        must_not: [{ has_id: [3] }],
      },
      [1],
    ],
    ['nested filter clause', { must: [{ should: [{ has_id: [1] }, { has_id: [4] }] }] }, [1, 4]],
  ])('%s', async (_label, filter, expected) => {
    await expect(matchingIds(filter)).resolves.toEqual(expected);
  });

  it('nested condition matches when one array element satisfies every clause', async () => {
    const filter: Filter = {
      must: [
        {
          nested: {
            key: 'pets',
            filter: {
              must: [
                { key: 'kind', match: { value: 'dog' } },
                { key: 'age', range: { lt: 5 } },
              ],
            },
          },
        },
      ],
    };
    // Alan has an old dog and a young cat: the flat conditions would match him, the nested one must not.
    await expect(matchingIds(filter)).resolves.toEqual([4]);
  });

  it('applies filters in count and in search', async () => {
    const filter: Filter = { must: [{ key: 'city', match: { value: 'London' } }] };

    await expect(target.client.count(name, { filter })).resolves.toEqual({ count: 2 });
    const { points } = await target.client.query(name, { query: [1, 0], filter, limit: 10 });
    expect(points.map((p) => p.id)).toEqual([2, 1]);
  });

  it('answers a Qdrant-style error for a malformed condition', async () => {
    const error = await qdrantError(
      target.client.count(name, {
        filter: { must: [{ key: 'city', match: { nope: 1 } } as unknown as Filter] },
      }),
    );

    expect(error.status).toBe(400);
    expect(error.error).toMatch(/^Format error in JSON body: /);
  });
});
