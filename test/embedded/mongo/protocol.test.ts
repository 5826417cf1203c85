/** Handshake and refusal behaviour specific to the embedded engine (a standalone server); always runs on the engine. */
import net from 'node:net';
import { deserialize, serialize, UUID } from 'bson';
import { MongoClient, MongoServerError } from 'mongodb';
import { startTempEngine } from './mongoTarget';

let temp: Awaited<ReturnType<typeof startTempEngine>>;
let client: MongoClient;

beforeAll(async () => {
  temp = await startTempEngine();
  client = await MongoClient.connect(`${temp.engine.uri}app`);
});
afterAll(async () => {
  await client.close();
  await temp.close();
});

async function failure(promise: Promise<unknown>): Promise<MongoServerError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  return error as MongoServerError;
}

/** Sends a legacy OP_QUERY `isMaster` on admin.$cmd and returns the OP_REPLY's document. */
function legacyIsMaster(port: number): Promise<Record<string, unknown>> {
  const query = serialize({ isMaster: 1 });
  const name = Buffer.from('admin.$cmd\0');
  const body = Buffer.concat([
    Buffer.alloc(4),
    name,
    Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]),
    query,
  ]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(7, 4);
  header.writeInt32LE(2004, 12);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(Buffer.concat([header, body])));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 4 && received.length >= received.readInt32LE(0)) {
        socket.end();
        expect(received.readInt32LE(8)).toBe(7);
        expect(received.readInt32LE(12)).toBe(1);
        resolve(deserialize(received.subarray(36)));
      }
    });
    socket.on('error', reject);
  });
}

it('answers the legacy OP_QUERY handshake with OP_REPLY', async () => {
  const reply = await legacyIsMaster(temp.engine.port);
  expect(reply).toMatchObject({
    ismaster: true,
    helloOk: true,
    maxWireVersion: 21,
    minWireVersion: 0,
    ok: 1,
  });
});

it('advertises a writable standalone with sessions over OP_MSG', async () => {
  const hello = await client.db('admin').command({ hello: 1 });
  expect(hello).toMatchObject({
    isWritablePrimary: true,
    logicalSessionTimeoutMinutes: 30,
    maxBsonObjectSize: 16777216,
    ok: 1,
  });
  expect(hello.setName).toBeUndefined();
  expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
  expect((await client.db('admin').command({ buildInfo: 1 })).version).toBe('7.0.0');
});

it('accepts and ignores session commands', async () => {
  const admin = client.db('admin');
  const id = { id: new UUID() };
  expect(await admin.command({ endSessions: [id] })).toEqual({ ok: 1 });
  expect(await admin.command({ refreshSessions: [id] })).toEqual({ ok: 1 });
});

it('refuses what it does not implement with CommandNotSupported, never silence', async () => {
  const db = client.db('app');
  await db.collection('src').insertOne({ a: 1 });
  const refusals = await Promise.all([
    failure(
      db
        .collection('src')
        .aggregate([{ $out: 'copy' }])
        .toArray(),
    ),
    failure(db.createCollection('ring', { capped: true, size: 4096 })),
    failure(db.collection('src').findOne({ $text: { $search: 'a' } })),
    failure(db.aggregate([{ $documents: [{ a: 1 }] }]).toArray()),
  ]);
  expect(refusals.map((error) => [error.code, error.codeName])).toEqual(
    Array.from({ length: 4 }, () => [115, 'CommandNotSupported']),
  );
  expect(refusals.map((error) => error.message)).toEqual([
    '$out is not supported by the embedded MongoDB engine',
    "create option 'capped' is not supported by the embedded MongoDB engine",
    '$text queries are not supported by the embedded MongoDB engine',
    'database-level aggregation is not supported by the embedded MongoDB engine',
  ]);
  expect(await db.listCollections({ name: { $in: ['copy', 'ring'] } }).toArray()).toEqual([]);
});

it('answers unknown commands with CommandNotFound', async () => {
  const error = await failure(client.db('app').command({ frobnicate: 1 }));
  expect([error.code, error.codeName, error.message]).toEqual([
    59,
    'CommandNotFound',
    "no such command: 'frobnicate'",
  ]);
});

it('refuses transactions as a standalone mongod does', async () => {
  const session = client.startSession();
  session.startTransaction();
  const error = await failure(client.db('app').collection('t').insertOne({ a: 1 }, { session }));
  // The driver rewrites the server's IllegalOperation exactly as it does for a real standalone mongod.
  expect(error.message).toBe(
    'This MongoDB deployment does not support retryable writes. Please add retryWrites=false to your connection string.',
  );
  const original = error.errorResponse.originalError as MongoServerError;
  expect([original.code, original.codeName, original.message]).toEqual([
    20,
    'IllegalOperation',
    'Transaction numbers are only allowed on a replica set member or mongos',
  ]);
  await session.endSession();
});

it('refuses change streams with MongoDB error 40573', async () => {
  const stream = client.db('app').collection('t').watch();
  const error = await failure(stream.tryNext());
  expect([error.code, error.message]).toEqual([
    40573,
    'The $changeStream stage is only supported on replica sets',
  ]);
  await stream.close();
});

it('creates, lists and drops collections and databases', async () => {
  const db = client.db('catalog_test');
  await db.createCollection('a');
  const exists = await failure(db.createCollection('a'));
  expect([exists.code, exists.codeName, exists.message]).toEqual([
    48,
    'NamespaceExists',
    'Collection catalog_test.a already exists.',
  ]);
  await db.collection('b').insertOne({ x: 1 });
  expect((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort()).toEqual([
    'a',
    'b',
  ]);
  const { databases } = await client.db('admin').command({ listDatabases: 1, nameOnly: true });
  expect(databases.map((d: { name: string }) => d.name)).toContain('catalog_test');
  expect(await db.collection('a').drop()).toBe(true);
  expect(await db.collection('never').drop()).toBe(true);
  expect(await db.dropDatabase()).toBe(true);
  expect(await db.listCollections().toArray()).toEqual([]);
});

it('rejects invalid collection names with InvalidNamespace', async () => {
  const error = await failure(client.db('app').collection('bad$name').insertOne({ a: 1 }));
  expect([error.code, error.message]).toEqual([73, "Invalid namespace specified 'app.bad$name'"]);
});

it('accepts directConnection=true in the connection string', async () => {
  const direct = await MongoClient.connect(`${temp.engine.uri}app?directConnection=true`);
  expect(await direct.db('app').command({ ping: 1 })).toEqual({ ok: 1 });
  await direct.close();
});

it('fails loudly on a $type alias it cannot evaluate', async () => {
  const error = await failure(
    client
      .db('app')
      .collection('t')
      .findOne({ _id: { $type: 'objectId' } }),
  );
  expect([error.code, error.message]).toEqual([
    115,
    '$type "objectId" is not supported by the embedded MongoDB engine',
  ]);
});
