/**
 * Storage guarantees of the embedded engine (always runs on the engine): acknowledged writes survive SIGKILL of
 * the CLI process (whose stale lock the restart takes over), one engine owns a directory, a torn trailing record
 * is dropped at start-up, and files compact to the size of live data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { makeTempDir, startTempEngine } from './mongoTarget';

const root = path.resolve(__dirname, '../../..');

/** Starts `npm run embedded:mongo`'s entry point as a child process; resolves with its printed URI. */
function startCli(dir: string): Promise<{ child: ChildProcess; uri: string }> {
  // `node --import tsx` rather than the tsx binary, which would run the engine in a grandchild SIGKILL misses.
  const args = [
    '--import',
    'tsx',
    path.join(root, 'embedded/mongo/cli.ts'),
    '--port',
    '0',
    '--dir',
    dir,
    '--log-level',
    'silent',
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`CLI exited early with code ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (uri) => resolve({ child, uri: uri.trim() }));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function collectionFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.coll'))
    .map((e) => path.join(e.parentPath, e.name));
}

async function totalBytes(dir: string): Promise<number> {
  const sizes = await Promise.all(
    (await collectionFiles(dir)).map(async (file) => (await fs.stat(file)).size),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

it('keeps every acknowledged write after the process is killed with SIGKILL', async () => {
  const { child, uri } = await startCli(dir);
  const client = await MongoClient.connect(`${uri}game`);
  const players = client.db('game').collection<{ _id: number; score: number; tag?: string }>('players');
  await players.createIndex({ score: 1 });
  for (let i = 0; i < 200; i++) await players.insertOne({ _id: i, score: i });
  await players.updateMany({ _id: { $lt: 50 } }, { $set: { tag: 'early' } });
  await players.deleteMany({ _id: { $gte: 190 } });
  // One command's records go to disk in one write: a batch, and an ordered batch that stops at a duplicate key.
  await players.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: 1000 + i, score: i })));
  await expect(
    players.insertMany([
      { _id: 2000, score: 1 },
      { _id: 2001, score: 1 },
      { _id: 1000, score: 0 },
      { _id: 2002, score: 1 },
    ]),
  ).rejects.toMatchObject({ code: 11000 });
  child.kill('SIGKILL');
  expect((await exited(child)).signal).toBe('SIGKILL');
  await client.close(true);

  const restarted = await startTempEngine({ dir });
  const reader = await MongoClient.connect(`${restarted.engine.uri}game`);
  const again = reader.db('game').collection('players');
  expect(await again.countDocuments()).toBe(190 + 300 + 2);
  expect(await again.countDocuments({ _id: { $gte: 2000 } } as never)).toBe(2);
  expect(await again.countDocuments({ tag: 'early' })).toBe(50);
  expect(await again.findOne({ _id: 189 as never })).toEqual({ _id: 189, score: 189 });
  expect((await again.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'score_1']);
  await reader.close();
  await restarted.close();
});

it('refuses a second engine on a data directory that is in use, and frees it on close', async () => {
  const first = await startTempEngine({ dir });
  await expect(startTempEngine({ dir })).rejects.toThrow(
    `data directory ${dir} is in use by process ${process.pid} (lock file ${path.join(dir, 'LOCK')})`,
  );
  await first.engine.close();
  const second = await startTempEngine({ dir });
  await second.engine.close();
});

it('closes cleanly on SIGTERM', async () => {
  const { child } = await startCli(dir);
  child.kill('SIGTERM');
  expect(await exited(child)).toEqual({ code: 0, signal: null });
});

it('drops a torn trailing record at start-up and keeps serving', async () => {
  const first = await startTempEngine({ dir });
  let client = await MongoClient.connect(`${first.engine.uri}game`);
  await client
    .db('game')
    .collection('items')
    .insertMany([
      { _id: 1 as never, n: 1 },
      { _id: 2 as never, n: 2 },
    ]);
  await client.close();
  await first.engine.close();
  for (const file of await collectionFiles(dir)) {
    // A record header promising 64 bytes followed by only a few: what a crash mid-write leaves.
    await fs.appendFile(file, Buffer.from([64, 0, 0, 0, 1, 2, 3, 4, 2, 9, 9]));
  }

  const second = await startTempEngine({ dir });
  client = await MongoClient.connect(`${second.engine.uri}game`);
  const items = client.db('game').collection('items');
  expect(await items.find().sort({ _id: 1 }).toArray()).toEqual([
    { _id: 1, n: 1 },
    { _id: 2, n: 2 },
  ]);
  await items.insertOne({ _id: 3 as never, n: 3 });
  await client.close();
  await second.engine.close();

  const third = await startTempEngine({ dir });
  client = await MongoClient.connect(`${third.engine.uri}game`);
  expect(await client.db('game').collection('items').countDocuments()).toBe(3);
  await client.close();
  await third.close();
});

it('compacts a collection file so its size tracks live data, not history', async () => {
  const engine = await startTempEngine({ dir, compactMinBytes: 64 * 1024 });
  const client = await MongoClient.connect(`${engine.engine.uri}game`);
  const state = client.db('game').collection<{ _id: string; payload: string; version: number }>('state');
  const payload = 'x'.repeat(1024);
  for (let version = 0; version < 1000; version++) {
    await state.updateOne({ _id: 'world' }, { $set: { payload, version } }, { upsert: true });
  }
  // About 1 MB of history was written for one ~1 KB document; the file is compacted as it goes.
  expect(await totalBytes(dir)).toBeLessThanOrEqual(128 * 1024);
  await client.close();
  await engine.engine.close();

  const reopened = await startTempEngine({ dir });
  const reader = await MongoClient.connect(`${reopened.engine.uri}game`);
  expect(
    await reader
      .db('game')
      .collection('state')
      .findOne({ _id: 'world' as never }),
  ).toEqual({ _id: 'world', payload, version: 999 });
  await reader.close();
  await reopened.close();
});
