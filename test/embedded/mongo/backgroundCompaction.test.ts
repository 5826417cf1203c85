/**
 * Compaction of a collection above 4 MB of live data runs in the background, in slices, while writes go on: the
 * replaced file holds every write made before, during and after it, and the event loop is never held for the whole
 * rewrite.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { makeTempDir, startTempEngine } from './mongoTarget';

const payload = 'p'.repeat(2_000);

async function collectionBytes(dir: string): Promise<number> {
  let total = 0;
  const walk = async (at: string): Promise<void> => {
    for (const entry of await fs.readdir(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith('.coll')) total += (await fs.stat(full)).size;
    }
  };
  await walk(dir);
  return total;
}

it('keeps every write made while a large collection compacts in the background', async () => {
  const dir = await makeTempDir();
  const first = await startTempEngine({ dir, compactMinBytes: 1024 * 1024 });
  const client = await MongoClient.connect(`${first.engine.uri}game`);
  const docs = client.db('game').collection<{ _id: number; payload: string; version: number }>('docs');
  await docs.insertMany(Array.from({ length: 3_000 }, (_, i) => ({ _id: i, payload, version: 0 })));
  // Rewriting every document twice makes half the file garbage: compaction starts, in the background.
  for (let round = 1; round <= 2; round++) {
    await docs.bulkWrite(
      Array.from({ length: 3_000 }, (_, i) => ({
        updateOne: { filter: { _id: i }, update: { $set: { version: round } } },
      })),
    );
  }
  // Writes while it runs: updates, deletes and inserts.
  for (let i = 0; i < 200; i++) {
    await docs.updateOne({ _id: i }, { $set: { version: 10 } });
    await docs.deleteOne({ _id: 2_999 - i });
    await docs.insertOne({ _id: 10_000 + i, payload, version: 7 });
  }
  // About 19 MB were written for 6 MB of live data: once compacted, the files hold little more than the live data.
  const compacted = 9 * 1024 * 1024;
  for (const end = Date.now() + 10_000; Date.now() < end;) {
    if ((await collectionBytes(dir)) < compacted) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await collectionBytes(dir)).toBeLessThan(compacted);
  await client.close();
  await first.engine.close();

  const reopened = await startTempEngine({ dir });
  const reader = await MongoClient.connect(`${reopened.engine.uri}game`);
  const stored = reader.db('game').collection<{ _id: number; version: number }>('docs');
  expect(await stored.countDocuments()).toBe(3_000);
  expect(await stored.countDocuments({ version: 10 })).toBe(200);
  expect(await stored.countDocuments({ version: 7 })).toBe(200);
  expect(await stored.countDocuments({ version: 2 })).toBe(2_600);
  expect(await stored.findOne({ _id: 2_999 })).toBeNull();
  await reader.close();
  await reopened.close();
});
