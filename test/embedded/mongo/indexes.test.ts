import { MongoServerError, ObjectId, type Collection, type Document } from 'mongodb';
import { ManualClock } from '../../../platform/clock';
import { startMongoTarget, type MongoTarget } from './mongoTarget';

interface Account extends Document {
  email: string;
  tenant: string;
  handle: string;
  age?: number;
}

function buildAccount(overrides: Partial<Account> = {}): Account {
  return { email: 'ann@example.com', tenant: 't1', handle: 'ann', age: 30, ...overrides };
}

let target: MongoTarget;
let accounts: Collection<Account>;
let counter = 0;

beforeAll(async () => {
  target = await startMongoTarget();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  accounts = target.db.collection<Account>(`accounts_${++counter}`);
});

async function failure(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

/** Every stage name in an explain plan tree. */
function stages(plan: Document): string[] {
  const names: string[] = [];
  const visit = (node: Document | undefined) => {
    if (!node) return;
    names.push(node.stage as string);
    visit(node.inputStage as Document | undefined);
    for (const child of (node.inputStages as Document[] | undefined) ?? []) visit(child);
  };
  visit(plan.queryPlanner.winningPlan as Document);
  return names;
}

describe('unique indexes', () => {
  it('reject a duplicate insert with E11000, keyPattern and keyValue', async () => {
    expect(await accounts.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    await accounts.insertOne(buildAccount());
    const error = await failure(accounts.insertOne(buildAccount({ handle: 'other' })));
    expect(error.code).toBe(11000);
    expect(error.message).toBe(
      `E11000 duplicate key error collection: ${target.dbName}.${accounts.collectionName} index: email_1 dup key: { email: "ann@example.com" }`,
    );
    expect(error.keyPattern).toEqual({ email: 1 });
    expect(error.keyValue).toEqual({ email: 'ann@example.com' });
  });

  it('reject an update that would duplicate a key and leave the document unchanged', async () => {
    await accounts.createIndex({ email: 1 }, { unique: true });
    await accounts.insertMany([buildAccount(), buildAccount({ email: 'bob@example.com', handle: 'bob' })]);
    const error = await failure(
      accounts.updateOne({ handle: 'bob' }, { $set: { email: 'ann@example.com' } }),
    );
    expect(error.code).toBe(11000);
    expect((await accounts.findOne({ handle: 'bob' }))?.email).toBe('bob@example.com');
  });

  it('enforce compound keys on the combination only', async () => {
    await accounts.createIndex({ tenant: 1, handle: 1 }, { unique: true });
    await accounts.insertMany([buildAccount(), buildAccount({ tenant: 't2' })]);
    const error = await failure(accounts.insertOne(buildAccount({ email: 'x@example.com' })));
    expect(error.code).toBe(11000);
    expect(error.keyValue).toEqual({ tenant: 't1', handle: 'ann' });
  });

  it('cannot be created over existing duplicates', async () => {
    await accounts.insertMany([buildAccount(), buildAccount()]);
    const error = await failure(accounts.createIndex({ email: 1 }, { unique: true }));
    expect(error.code).toBe(11000);
    expect(await accounts.indexExists('email_1')).toBe(false);
  });

  it('with a partial filter only constrain matching documents', async () => {
    await accounts.createIndex(
      { email: 1 },
      { unique: true, partialFilterExpression: { age: { $gte: 18 } } },
    );
    await accounts.insertMany([
      buildAccount({ age: 10 }),
      buildAccount({ age: 12 }),
      buildAccount({ age: 40 }),
    ]);
    const error = await failure(accounts.insertOne(buildAccount({ age: 50 })));
    expect(error.code).toBe(11000);
  });
});

describe('index management', () => {
  it('lists, recreates idempotently, reports conflicts and drops', async () => {
    await accounts.createIndex({ tenant: 1, age: -1 }, { name: 'by_tenant_age' });
    expect(await accounts.createIndex({ tenant: 1, age: -1 }, { name: 'by_tenant_age' })).toBe(
      'by_tenant_age',
    );
    const indexes = await accounts.listIndexes().toArray();
    expect(indexes.map((index) => [index.name, index.key])).toEqual([
      ['_id_', { _id: 1 }],
      ['by_tenant_age', { tenant: 1, age: -1 }],
    ]);
    const conflict = await failure(accounts.createIndex({ tenant: 1, age: -1 }, { name: 'other_name' }));
    expect(conflict.code).toBe(85);
    expect(conflict.codeName).toBe('IndexOptionsConflict');
    const sameName = await failure(accounts.createIndex({ handle: 1 }, { name: 'by_tenant_age' }));
    expect(sameName.code).toBe(86);
    await accounts.dropIndex('by_tenant_age');
    expect((await accounts.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
    const missing = await failure(accounts.dropIndex('nope'));
    expect(missing.code).toBe(27);
  });

  it('listIndexes on a missing collection fails with NamespaceNotFound', async () => {
    const error = await failure(target.db.collection('never_created').listIndexes().toArray());
    expect(error.code).toBe(26);
    expect(error.codeName).toBe('NamespaceNotFound');
  });
});

describe('query planning', () => {
  beforeEach(async () => {
    await accounts.createIndex({ email: 1 });
    await accounts.createIndex({ tenant: 1, age: 1 });
    await accounts.insertMany(
      Array.from({ length: 50 }, (_, i) =>
        buildAccount({ email: `u${i}@example.com`, tenant: `t${i % 5}`, age: i }),
      ),
    );
  });

  /** What running the find examined, from `explain('executionStats')`. */
  async function examined(filter: Document) {
    const plan = await accounts.find(filter).explain('executionStats');
    const stats = plan.executionStats as Document;
    return {
      stages: stages(plan),
      returned: stats.nReturned as number,
      docsExamined: stats.totalDocsExamined as number,
    };
  }

  it('reads one document for an _id lookup', async () => {
    const [doc] = await accounts.find().limit(1).toArray();
    const run = await examined({ _id: doc._id });
    expect(run.stages.some((stage) => ['IDHACK', 'EXPRESS_IXSCAN', 'IXSCAN'].includes(stage))).toBe(true);
    expect(run.stages).not.toContain('COLLSCAN');
    expect(run).toMatchObject({ returned: 1, docsExamined: 1 });
  });

  it('reads only the matching documents through a secondary index', async () => {
    const run = await examined({ email: 'u7@example.com' });
    expect(run.stages).toContain('IXSCAN');
    expect(run).toMatchObject({ returned: 1, docsExamined: 1 });
  });

  it('narrows a compound-index query to its equality prefix, and scans without an index', async () => {
    const compound = await examined({ tenant: 't2', age: { $gt: 10 } });
    expect(compound.stages).toContain('IXSCAN');
    expect(compound.returned).toBe(8);
    // At most the 10 documents of tenant t2 (MongoDB also bounds `age` in the index and reads 8), never all 50.
    expect(compound.docsExamined).toBeGreaterThanOrEqual(8);
    expect(compound.docsExamined).toBeLessThanOrEqual(10);

    const scan = await examined({ handle: 'ann' });
    expect(scan.stages).toEqual(['COLLSCAN']);
    expect(scan).toMatchObject({ returned: 50, docsExamined: 50 });

    const found = await accounts
      .find({ tenant: 't2', age: { $gt: 10 } })
      .sort({ age: 1 })
      .toArray();
    expect(found.map((doc) => doc.age)).toEqual([12, 17, 22, 27, 32, 37, 42, 47]);
  });
});

describe('ObjectId keys', () => {
  it('sort, range and match in byte order, with ids differing in every byte', async () => {
    const refs = target.db.collection<{ ref: ObjectId; n: number }>(`refs_${++counter}`);
    await refs.createIndex({ ref: 1 });
    // A middle id, and ids below and above it at each of the 12 byte positions.
    const base = Buffer.alloc(12, 0x80);
    const ids = [new ObjectId(base)];
    for (let position = 0; position < 12; position++) {
      for (const value of [0x00, 0x7f, 0x81, 0xff]) {
        const bytes = Buffer.from(base);
        bytes[position] = value;
        ids.push(new ObjectId(bytes));
      }
    }
    await refs.insertMany(ids.map((ref, n) => ({ ref, n })));
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)));
    const hex = (docs: { ref: ObjectId }[]) => docs.map((doc) => doc.ref.toHexString());
    expect(hex(await refs.find().sort({ ref: 1 }).toArray())).toEqual(byBytes.map((id) => id.toHexString()));
    const middle = ids[0] as ObjectId;
    const above = await refs
      .find({ ref: { $gt: middle } })
      .sort({ ref: 1 })
      .toArray();
    expect(hex(above)).toEqual(byBytes.slice(byBytes.indexOf(middle) + 1).map((id) => id.toHexString()));
    for (const id of ids) expect((await refs.findOne({ ref: id }))?.ref).toEqual(id);
  });
});

describe('TTL indexes', () => {
  it('delete documents once their date is expireAfterSeconds in the past, and keep the rest', async () => {
    // The engine runs its TTL monitor by its clock (here each second of it, before the next command once due),
    // so a manual clock makes expiry deterministic; a real server is polled until its 60-second monitor has run.
    const clock = new ManualClock();
    const ttlTarget = await startMongoTarget({ clock, ttlMonitorIntervalMs: 1000 });
    try {
      const sessions = ttlTarget.db.collection<Account>('sessions');
      const now = ttlTarget.realServer ? Date.now() : clock.now();
      await sessions.createIndex({ seenAt: 1 }, { expireAfterSeconds: 30 });
      await sessions.insertMany([
        buildAccount({ handle: 'stale', seenAt: new Date(now - 3_600_000) }),
        buildAccount({ handle: 'recent', seenAt: new Date(now) }),
        buildAccount({ handle: 'future', seenAt: new Date(now + 3_600_000) }),
        buildAccount({ handle: 'array', seenAt: [new Date(now + 3_600_000), new Date(now - 3_600_000)] }),
        buildAccount({ handle: 'no-date', seenAt: 'not a date' }),
      ]);
      const handles = async () =>
        (
          await sessions
            .find({}, { projection: { _id: 0, handle: 1 } })
            .sort({ handle: 1 })
            .toArray()
        ).map((doc) => doc.handle);

      if (ttlTarget.realServer) {
        const deadline = Date.now() + 120_000;
        while (
          (await sessions.countDocuments({ handle: { $ne: 'future' }, seenAt: { $type: 'date' } })) > 0
        ) {
          if (Date.now() > deadline) break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      } else {
        clock.advance(20_000);
        // 20 s later: only what was already past its 30 s is gone (an array expires by its earliest date).
        expect(await handles()).toEqual(['future', 'no-date', 'recent']);
        clock.advance(15_000);
      }
      // A value that is not a date never expires.
      expect(await handles()).toEqual(['future', 'no-date']);
    } finally {
      await ttlTarget.close();
    }
  }, 150_000);
});

describe('index entries across updates', () => {
  it('keeps entries an update leaves alone and moves those it changes, multikey included', async () => {
    await accounts.createIndex({ tenant: 1, handle: 1 });
    await accounts.createIndex({ tags: 1 });
    await accounts.insertMany([
      buildAccount({ handle: 'ann', tags: ['red', 'blue'] }),
      buildAccount({ email: 'bo@example.com', handle: 'bo', tags: ['blue'] }),
    ]);

    await accounts.updateOne({ handle: 'ann' }, { $set: { age: 31 } });
    await accounts.updateOne({ handle: 'bo' }, { $set: { handle: 'bob', tags: ['green', 'blue'] } });
    await accounts.updateOne({ handle: 'ann' }, { $set: { tags: ['blue', 'red'] } });

    const handles = async (filter: Document) =>
      (await accounts.find(filter).hint({ tags: 1 }).toArray()).map((a) => a.handle).sort();
    expect(
      await accounts.find({ tenant: 't1', handle: 'ann' }).hint({ tenant: 1, handle: 1 }).toArray(),
    ).toEqual([expect.objectContaining({ age: 31 })]);
    expect(
      await accounts.countDocuments({ tenant: 't1', handle: 'bo' }, { hint: { tenant: 1, handle: 1 } }),
    ).toBe(0);
    expect(
      await accounts.countDocuments({ tenant: 't1', handle: 'bob' }, { hint: { tenant: 1, handle: 1 } }),
    ).toBe(1);
    expect(await handles({ tags: 'red' })).toEqual(['ann']);
    expect(await handles({ tags: 'blue' })).toEqual(['ann', 'bob']);
    expect(await handles({ tags: 'green' })).toEqual(['bob']);
  });
});

describe('multikey index entries', () => {
  it('indexes each distinct array value once, a date and the string of its ISO text apart', async () => {
    await accounts.createIndex({ tags: 1, tenant: 1 });
    const day = new Date('2026-11-26T00:00:00.000Z');
    await accounts.insertMany([
      buildAccount({ handle: 'ann', tags: ['red', 'red', day, day.toISOString(), { k: 1 }, { k: 1 }] }),
      buildAccount({ email: 'bo@example.com', handle: 'bo', tags: [new Date(day), 'blue'] }),
    ]);

    const handles = async (tag: unknown) =>
      (await accounts.find({ tags: tag, tenant: 't1' }).hint({ tags: 1, tenant: 1 }).toArray())
        .map((account) => account.handle)
        .sort();
    expect(await handles('red')).toEqual(['ann']);
    expect(await handles(day)).toEqual(['ann', 'bo']);
    expect(await handles(day.toISOString())).toEqual(['ann']);
    expect(await handles({ k: 1 })).toEqual(['ann']);
    await accounts.updateOne({ handle: 'ann' }, { $pull: { tags: 'red' } } as Document);
    expect(await handles('red')).toEqual([]);
  });
});
