import type { Collection, Document } from 'mongodb';
import { startMongoTarget, type MongoTarget } from './mongoTarget';

interface Order extends Document {
  _id: number;
  customer: string;
  items: { sku: string; qty: number }[];
  total: number;
}

function buildOrder(overrides: Partial<Order> & { _id: number }): Order {
  return { customer: 'ann', items: [{ sku: 'apple', qty: 1 }], total: 10, ...overrides };
}

let target: MongoTarget;
let orders: Collection<Order>;

beforeAll(async () => {
  target = await startMongoTarget();
  orders = target.db.collection<Order>('orders');
  await orders.insertMany([
    buildOrder({
      _id: 1,
      customer: 'ann',
      items: [
        { sku: 'apple', qty: 2 },
        { sku: 'pear', qty: 1 },
      ],
      total: 30,
    }),
    buildOrder({ _id: 2, customer: 'bob', items: [{ sku: 'apple', qty: 5 }], total: 50 }),
    buildOrder({ _id: 3, customer: 'ann', items: [{ sku: 'plum', qty: 1 }], total: 5 }),
    buildOrder({ _id: 4, customer: 'cy', items: [], total: 0 }),
  ]);
  await target.db.collection('customers').insertMany([
    { _id: 'ann' as never, city: 'Oslo' },
    { _id: 'bob' as never, city: 'Rome' },
  ]);
});
afterAll(async () => {
  await target.close();
});

it('groups, sorts, limits and skips', async () => {
  const result = await orders
    .aggregate([
      { $match: { total: { $gt: 0 } } },
      { $group: { _id: '$customer', spent: { $sum: '$total' }, orders: { $sum: 1 } } },
      { $sort: { spent: -1 } },
      { $skip: 0 },
      { $limit: 2 },
    ])
    .toArray();
  expect(result).toEqual([
    { _id: 'bob', spent: 50, orders: 1 },
    { _id: 'ann', spent: 35, orders: 2 },
  ]);
});

it('unwinds arrays and projects computed fields', async () => {
  const result = await orders
    .aggregate([
      { $unwind: '$items' },
      { $project: { _id: 0, order: '$_id', sku: '$items.sku', doubled: { $multiply: ['$items.qty', 2] } } },
      { $sort: { order: 1, sku: 1 } },
    ])
    .toArray();
  expect(result).toEqual([
    { order: 1, sku: 'apple', doubled: 4 },
    { order: 1, sku: 'pear', doubled: 2 },
    { order: 2, sku: 'apple', doubled: 10 },
    { order: 3, sku: 'plum', doubled: 2 },
  ]);
});

it('joins another collection with $lookup and adds fields', async () => {
  const result = await orders
    .aggregate([
      { $match: { _id: { $in: [2, 4] } } },
      { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'who' } },
      { $addFields: { city: { $first: '$who.city' }, itemCount: { $size: '$items' } } },
      { $project: { who: 0, items: 0 } },
      { $sort: { _id: 1 } },
    ])
    .toArray();
  expect(result).toEqual([
    { _id: 2, customer: 'bob', total: 50, city: 'Rome', itemCount: 1 },
    { _id: 4, customer: 'cy', total: 0, itemCount: 0 },
  ]);
});

it('counts and runs facets', async () => {
  expect(await orders.aggregate([{ $match: { customer: 'ann' } }, { $count: 'n' }]).toArray()).toEqual([
    { n: 2 },
  ]);
  const [facets] = await orders
    .aggregate([
      {
        $facet: {
          big: [{ $match: { total: { $gte: 30 } } }, { $count: 'n' }],
          customers: [{ $group: { _id: '$customer' } }, { $sort: { _id: 1 } }],
        },
      },
    ])
    .toArray();
  expect(facets).toEqual({ big: [{ n: 2 }], customers: [{ _id: 'ann' }, { _id: 'bob' }, { _id: 'cy' }] });
  // Over no documents $count yields no document at all, also inside a facet.
  expect(await orders.aggregate([{ $match: { customer: 'nobody' } }, { $count: 'n' }]).toArray()).toEqual([]);
  const [empty] = await orders
    .aggregate([{ $facet: { none: [{ $match: { total: { $gt: 1000 } } }, { $count: 'n' }] } }])
    .toArray();
  expect(empty).toEqual({ none: [] });
});

it('returns results past the first batch through a cursor', async () => {
  const many = target.db.collection('numbers');
  await many.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i as never, n: i })));
  const result = await many
    .aggregate([{ $sort: { n: -1 } }, { $project: { _id: 0, n: 1 } }], { batchSize: 25 })
    .toArray();
  expect(result).toHaveLength(300);
  expect(result[0]).toEqual({ n: 299 });
  expect(result[299]).toEqual({ n: 0 });
});

it('rejects an unknown stage with MongoDB error 40324', async () => {
  const error = await orders
    .aggregate([{ $frobnicate: {} }])
    .toArray()
    .catch((e: { code: number; message: string }) => e);
  expect(error).toMatchObject({ code: 40324, message: "Unrecognized pipeline stage name: '$frobnicate'" });
});
