/**
 * Inserted documents' records: a document stored as the driver sent it is written in the bytes it arrived in (no
 * second serialisation); one the engine changed (an `_id` added or moved first) is serialised; both read back the
 * same after a restart.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Binary, Decimal128, Double, Int32, Long, MaxKey, ObjectId, serialize, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { makeTempDir, startTempEngine } from './mongoTarget';

/** Every collection file's bytes under `dir`, joined. */
async function fileBytes(dir: string): Promise<Buffer> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.coll'));
  return Buffer.concat(await Promise.all(files.map((e) => fs.readFile(path.join(e.parentPath, e.name)))));
}

const raw = { promoteValues: false, promoteLongs: false, promoteBuffers: false } as const;

it('writes an unchanged document in the bytes it arrived in, and reads every document back alike after a restart', async () => {
  const dir = await makeTempDir();
  let engine = await startTempEngine({ dir });
  const asSent: Document = {
    _id: 'as-sent',
    one: new Double(1),
    int: new Int32(7),
    long: Long.fromString('9007199254740993'),
    decimal: Decimal128.fromString('1.10'),
    at: new Date(Date.UTC(2026, 10, 26)),
    bytes: new Binary(Buffer.from([1, 2, 3])),
    nested: { list: [1, 'two', null, { deep: true }], max: new MaxKey() },
    pattern: /ab+c/i,
  };
  const idLast: Document = { name: 'id last', _id: new ObjectId() };
  const noId: Document = { name: 'no id' };
  let client = await MongoClient.connect(engine.engine.uri);
  const items = () => client.db('records').collection('items');
  // Without forceServerObjectId the driver would add `_id` itself; the engine is to add it here.
  await client.db('records').collection('items', {}).insertMany([asSent, idLast], { ordered: true });
  await client.db('records').command({ insert: 'items', documents: [noId] });
  const before = await items().find({}, raw).sort({ name: 1 }).toArray();

  const stored = await fileBytes(dir);
  expect(stored.includes(Buffer.from(serialize(asSent)))).toBe(true);
  expect(stored.includes(Buffer.from(serialize(idLast)))).toBe(false); // moved `_id` first: a new document, serialised

  await client.close();
  await engine.engine.close();
  engine = await startTempEngine({ dir });
  client = await MongoClient.connect(engine.engine.uri);
  const after = await items().find({}, raw).sort({ name: 1 }).toArray();
  expect(after).toEqual(before);
  expect(after).toHaveLength(3);
  expect(Object.keys(after.find((doc) => doc.name === 'id last')!)[0]).toBe('_id');
  await client.close();
  await engine.close();
});
