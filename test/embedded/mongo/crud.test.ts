import { MongoBulkWriteError, MongoServerError, ObjectId, type Collection, type Document } from 'mongodb';
import { startMongoTarget, type MongoTarget } from './mongoTarget';

type Item = {
  _id?: ObjectId | number | string;
  sku?: string;
  qty?: number;
  tags: string[];
  grades?: number[];
  size?: { h: number; uom: string };
  total?: number;
};

function buildItem(overrides: Partial<Item> = {}): Item {
  return { sku: 'sku-1', qty: 10, tags: ['red'], size: { h: 10, uom: 'cm' }, ...overrides };
}

let target: MongoTarget;
let items: Collection<Item>;

beforeAll(async () => {
  target = await startMongoTarget();
});
afterAll(async () => {
  await target.close();
});
beforeEach(async () => {
  items = target.db.collection<Item>(
    `items_${expect.getState().currentTestName?.replace(/\W+/g, '_').slice(0, 60)}`,
  );
});

describe('insert', () => {
  it('generates an ObjectId _id and stores it as the first field', async () => {
    const result = await items.insertOne(buildItem({ sku: 'a' }));
    expect(result.insertedId).toBeInstanceOf(ObjectId);
    const stored = await items.findOne({ sku: 'a' });
    expect(Object.keys(stored!)).toEqual(['_id', 'sku', 'qty', 'tags', 'size']);
    expect(stored!._id.toString()).toBe(result.insertedId.toString());
  });

  it('stops an ordered batch at the first duplicate and reports its index', async () => {
    const error = await items
      .insertMany([buildItem({ _id: 1 }), buildItem({ _id: 1 }), buildItem({ _id: 2 })])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    const bulk = error as MongoBulkWriteError;
    expect(bulk.insertedCount).toBe(1);
    expect(bulk.writeErrors).toHaveLength(1);
    const [writeError] = bulk.writeErrors as unknown as { index: number; code: number; errmsg: string }[];
    expect(writeError.index).toBe(1);
    expect(writeError.code).toBe(11000);
    expect(writeError.errmsg).toBe(
      `E11000 duplicate key error collection: ${target.dbName}.${items.collectionName} index: _id_ dup key: { _id: 1 }`,
    );
    expect(await items.countDocuments()).toBe(1);
  });

  it('continues an unordered batch past duplicates', async () => {
    const error = (await items
      .insertMany(
        [buildItem({ _id: 1 }), buildItem({ _id: 1 }), buildItem({ _id: 2 }), buildItem({ _id: 2 })],
        {
          ordered: false,
        },
      )
      .catch((e: unknown) => e)) as MongoBulkWriteError;
    expect(error.insertedCount).toBe(2);
    expect((error.writeErrors as unknown as { index: number }[]).map((e) => e.index)).toEqual([1, 3]);
    expect(await items.countDocuments()).toBe(2);
  });
});

describe('find', () => {
  beforeEach(async () => {
    await items.insertMany([
      buildItem({ _id: 1, sku: 'a', qty: 5, tags: ['red', 'blue'], size: { h: 14, uom: 'in' } }),
      buildItem({ _id: 2, sku: 'b', qty: 15, tags: ['blue'], size: { h: 8, uom: 'cm' } }),
      buildItem({ _id: 3, sku: 'c', qty: 25, tags: [], size: { h: 20, uom: 'cm' } }),
      buildItem({ _id: 4, sku: 'd', qty: 35, tags: ['green'] }),
    ]);
  });

  it('filters with comparison, array, dotted and logical operators', async () => {
    const ids = async (filter: Document) =>
      (await items.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ qty: { $gt: 10, $lte: 25 } })).toEqual([2, 3]);
    expect(await ids({ tags: 'blue' })).toEqual([1, 2]);
    expect(await ids({ tags: { $size: 0 } })).toEqual([3]);
    expect(await ids({ 'size.uom': 'cm' })).toEqual([2, 3, 4]);
    expect(await ids({ $or: [{ sku: 'a' }, { qty: { $gte: 35 } }] })).toEqual([1, 4]);
    expect(await ids({ sku: { $in: ['b', 'd', 'zz'] } })).toEqual([2, 4]);
    expect(await ids({ sku: { $regex: '^[ab]$' } })).toEqual([1, 2]);
    expect(await ids({ size: { $exists: false } })).toEqual([]);
  });

  it('applies projection, sort, skip and limit', async () => {
    const docs = await items
      .find({}, { projection: { sku: 1, 'size.h': 1, _id: 0 } })
      .sort({ 'size.h': -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(docs).toEqual([
      { sku: 'a', size: { h: 14 } },
      { sku: 'd', size: { h: 10 } },
    ]);
  });

  it('excludes fields with an exclusion projection', async () => {
    const doc = await items.findOne({ _id: 2 }, { projection: { tags: 0, size: 0 } });
    expect(doc).toEqual({ _id: 2, sku: 'b', qty: 15 });
  });
});

describe('cursors', () => {
  it('pages past the first batch with getMore', async () => {
    await items.insertMany(Array.from({ length: 250 }, (_, i) => buildItem({ _id: i, qty: i })));
    const cursor = items.find({ qty: { $gte: 0 } }, { batchSize: 40 }).sort({ qty: 1 });
    const seen: number[] = [];
    for await (const doc of cursor) seen.push(doc.qty!);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('kills an open cursor so getMore on it fails with CursorNotFound', async () => {
    await items.insertMany(Array.from({ length: 30 }, (_, i) => buildItem({ _id: i })));
    const first = await target.db.command({ find: items.collectionName, filter: {}, batchSize: 10 });
    const cursorId = first.cursor.id;
    expect(first.cursor.firstBatch).toHaveLength(10);
    const killed = await target.db.command({ killCursors: items.collectionName, cursors: [cursorId] });
    expect(killed.cursorsKilled.map(String)).toEqual([String(cursorId)]);
    const error = await target.db
      .command({ getMore: cursorId, collection: items.collectionName })
      .catch((e: unknown) => e as MongoServerError);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(43);
    expect((error as MongoServerError).codeName).toBe('CursorNotFound');
  });
});

describe('update', () => {
  beforeEach(async () => {
    await items.insertMany([
      buildItem({ _id: 1, qty: 1, grades: [80, 95, 100] }),
      buildItem({ _id: 2, qty: 2, grades: [70, 100] }),
    ]);
  });

  it('applies operator documents to one or many documents', async () => {
    const one = await items.updateOne(
      { _id: 1 },
      { $inc: { qty: 5 }, $push: { tags: 'blue' }, $unset: { size: '' } },
    );
    expect([one.matchedCount, one.modifiedCount]).toEqual([1, 1]);
    expect(await items.findOne({ _id: 1 })).toEqual({
      _id: 1,
      sku: 'sku-1',
      qty: 6,
      tags: ['red', 'blue'],
      grades: [80, 95, 100],
    });
    const many = await items.updateMany({}, { $set: { sku: 'z' } });
    expect([many.matchedCount, many.modifiedCount]).toEqual([2, 2]);
    const noop = await items.updateMany({}, { $set: { sku: 'z' } });
    expect([noop.matchedCount, noop.modifiedCount]).toEqual([2, 0]);
  });

  it('replaces a document keeping its _id and rejects changing _id', async () => {
    const raw = target.db.collection(items.collectionName);
    await raw.replaceOne({ _id: 1 as never }, { sku: 'new' });
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, sku: 'new' });
    const error = (await raw
      .replaceOne({ _id: 1 as never }, { _id: 9, sku: 'x' })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(error.code).toBe(66);
    expect(error.message).toBe(
      "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 9",
    );
  });

  it('runs pipeline updates', async () => {
    await items.updateOne({ _id: 2 }, [{ $set: { total: { $sum: '$grades' } } }, { $unset: 'tags' }]);
    const doc = await items.findOne({ _id: 2 });
    expect(doc?.total).toBe(170);
    expect(doc?.tags).toBeUndefined();
  });

  it('upserts from the filter equality fields and $setOnInsert', async () => {
    const result = await items.updateOne(
      { sku: 'fresh', 'size.uom': 'mm' },
      { $set: { qty: 3 }, $setOnInsert: { tags: ['new'] } },
      { upsert: true },
    );
    expect(result.upsertedCount).toBe(1);
    expect(result.matchedCount).toBe(0);
    const doc = await items.findOne({ _id: result.upsertedId! });
    expect(doc).toEqual({ _id: result.upsertedId, sku: 'fresh', size: { uom: 'mm' }, qty: 3, tags: ['new'] });
    const again = await items.updateOne(
      { sku: 'fresh' },
      { $setOnInsert: { tags: ['ignored'] } },
      { upsert: true },
    );
    expect([again.matchedCount, again.upsertedCount]).toEqual([1, 0]);
    expect((await items.findOne({ sku: 'fresh' }))?.tags).toEqual(['new']);
  });

  it('upserts when the filter also has conditions the new document does not meet, seeding one-element $in', async () => {
    const result = await items.updateOne(
      { sku: 'ranged', qty: { $lt: 5 }, tags: { $in: ['solo'] } },
      { $set: { total: 1 }, $inc: { qty: 2 } },
      { upsert: true },
    );
    expect(result.upsertedCount).toBe(1);
    expect(await items.findOne({ _id: result.upsertedId! }, { projection: { _id: 0 } })).toEqual({
      sku: 'ranged',
      tags: 'solo',
      qty: 2,
      total: 1,
    });
    const pipeline = await items.updateOne(
      { sku: 'piped', qty: { $gte: 100 } },
      [{ $set: { total: { $add: [1, 2] } } }],
      { upsert: true },
    );
    expect(await items.findOne({ _id: pipeline.upsertedId! }, { projection: { _id: 0 } })).toEqual({
      sku: 'piped',
      total: 3,
    });
  });

  it('rejects two operators on the same path with ConflictingUpdateOperators', async () => {
    const error = (await items
      .updateOne({ _id: 1 }, { $set: { qty: 1 }, $inc: { qty: 1 } })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(error).toBeInstanceOf(MongoServerError);
    expect([error.code, error.message]).toEqual([
      40,
      "Updating the path 'qty' would create a conflict at 'qty'",
    ]);
    expect((await items.findOne({ _id: 1 }))?.qty).toBe(1);
  });

  it('updates matching array elements with arrayFilters and the positional operator', async () => {
    await items.updateMany(
      {},
      { $set: { 'grades.$[high]': 100 } },
      { arrayFilters: [{ high: { $gte: 95 } }] },
    );
    expect((await items.findOne({ _id: 1 }))?.grades).toEqual([80, 100, 100]);
    await items.updateOne({ _id: 2, grades: 70 }, { $set: { 'grades.$': 75 } });
    expect((await items.findOne({ _id: 2 }))?.grades).toEqual([75, 100]);
  });

  it('rejects unknown update operators with FailedToParse', async () => {
    const error = (await items
      .updateOne({ _id: 1 }, { $bogus: { a: 1 } } as Document)
      .catch((e: unknown) => e)) as MongoServerError;
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error.code).toBe(9);
    expect(error.message).toBe(
      'Unknown modifier: $bogus. Expected a valid update modifier or pipeline-style update specified as an array',
    );
  });
});

describe('delete, findAndModify, count and distinct', () => {
  beforeEach(async () => {
    await items.insertMany([
      buildItem({ _id: 1, sku: 'a', qty: 1, tags: ['x', 'y'] }),
      buildItem({ _id: 2, sku: 'b', qty: 2, tags: ['y'] }),
      buildItem({ _id: 3, sku: 'b', qty: 3, tags: ['z'] }),
    ]);
  });

  it('deletes one or many', async () => {
    expect((await items.deleteOne({ sku: 'b' })).deletedCount).toBe(1);
    expect((await items.deleteMany({})).deletedCount).toBe(2);
    expect(await items.countDocuments()).toBe(0);
  });

  it('findOneAndUpdate honours sort, returnDocument and projection', async () => {
    const before = await items.findOneAndUpdate(
      { sku: 'b' },
      { $inc: { qty: 10 } },
      { sort: { qty: -1 }, returnDocument: 'before', projection: { qty: 1 } },
    );
    expect(before).toEqual({ _id: 3, qty: 3 });
    const after = await items.findOneAndUpdate(
      { sku: 'b' },
      { $inc: { qty: 10 } },
      { sort: { qty: 1 }, returnDocument: 'after' },
    );
    expect(after?.qty).toBe(12);
  });

  it('findOneAndUpdate upserts and findOneAndDelete removes', async () => {
    const upserted = await items.findOneAndUpdate(
      { sku: 'new' },
      { $set: { qty: 7 } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(upserted.lastErrorObject).toEqual({ n: 1, updatedExisting: false, upserted: upserted.value!._id });
    expect(upserted.value).toEqual({ _id: upserted.value!._id, sku: 'new', qty: 7 });
    const removed = await items.findOneAndDelete({ sku: 'a' });
    expect(removed?._id).toBe(1);
    expect(await items.findOne({ _id: 1 })).toBeNull();
    expect(await items.findOneAndUpdate({ sku: 'none' }, { $set: { qty: 1 } })).toBeNull();
  });

  it('counts with a filter, skip and limit and lists distinct values', async () => {
    expect(await items.countDocuments({ sku: 'b' })).toBe(2);
    expect(await items.countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
    expect(await items.estimatedDocumentCount()).toBe(3);
    expect(await items.distinct('tags')).toEqual(['x', 'y', 'z']);
    expect(await items.distinct('sku', { qty: { $gt: 1 } })).toEqual(['b']);
  });
});
