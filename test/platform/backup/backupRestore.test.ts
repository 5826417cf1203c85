import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { QdrantClient } from '@qdrant/js-client-rest';
import mongoose, { type Connection } from 'mongoose';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { startQdrantEngine, type QdrantEngine } from '../../../embedded/qdrant';
import { ManualClock } from '../../../platform/clock';
import { silentLogger } from '../../../platform/logger';
import { BackupRunner, MongoBackupGate, readManifest } from '../../../platform/backup';
import { runBackupCli } from '../../../services/health/backupCli';
import { TEST_ENV } from '../../helpers/platform';

/** Embedded engines on their own data directory, reached by URL as a deployment would. */
interface Stores {
  dataDir: string;
  mongo: MongoEngine;
  qdrant: QdrantEngine;
  client: MongoClient;
  db: Db;
  /** The same database through mongoose, as the platform hands it to the backup gate. */
  connection: Connection;
  vectors: QdrantClient;
  close(): Promise<void>;
}

async function startStores(dataDir: string): Promise<Stores> {
  const mongo = await startMongoEngine({ dir: path.join(dataDir, 'mongo') });
  const qdrant = await startQdrantEngine({ dir: path.join(dataDir, 'qdrant') });
  const client = await MongoClient.connect(mongo.uri);
  const connection = await mongoose.createConnection(`${mongo.uri}forge`).asPromise();
  return {
    dataDir,
    mongo,
    qdrant,
    client,
    db: client.db('forge'),
    connection,
    vectors: new QdrantClient({ url: qdrant.url, checkCompatibility: false }),
    close: async () => {
      await connection.close();
      await client.close();
      await mongo.close();
      await qdrant.close();
    },
  };
}

/** A user document as the platform writes them: ObjectId, dates, nested values. */
function buildUser(index: number) {
  return {
    _id: new ObjectId(),
    email: `player${index}@example.test`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 0, index)),
    profile: { level: index % 30, tags: ['a', `t${index}`] },
  };
}

/** A chunk point with two named vectors and a payload. */
function buildPoint(index: number) {
  return {
    id: index + 1,
    vector: { hash: [index, 1, 0, 0], lexical: [0, index, 1] },
    payload: { documentId: `doc-${index % 7}`, index },
  };
}

describe('backups: snapshot, retention and restore into a fresh data directory', () => {
  let root: string;
  let source: Stores;
  let clock: ManualClock;
  let runner: BackupRunner;
  const backupsDir = () => path.join(source.dataDir, 'backups');
  /** The runner over the source stores' current connections, keeping two snapshots. */
  const runnerOf = async (stores: Stores) =>
    new BackupRunner({
      stores: { mongo: stores.db, qdrant: stores.vectors },
      backupsDir: backupsDir(),
      retain: 2,
      gate: new MongoBackupGate(stores.connection, clock),
      clock,
      logger: silentLogger,
    });

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-backup-'));
    source = await startStores(path.join(root, 'source'));
    clock = new ManualClock(Date.UTC(2026, 10, 26, 3, 0));
    runner = await runnerOf(source);
  });
  afterAll(async () => {
    await source.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('restores every acknowledged write, index and vector into a fresh data directory', async () => {
    const users = Array.from({ length: 1_200 }, (_, index) => buildUser(index));
    for (const user of users) await source.db.collection('users').insertOne(user);
    await source.db.collection('users').createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
    await source.db.collection('emptyYet').createIndex({ at: 1 });
    await source.vectors.createCollection('chunks_v1', {
      vectors: { hash: { size: 4, distance: 'Cosine' }, lexical: { size: 3, distance: 'Dot' } },
    });
    await source.vectors.createPayloadIndex('chunks_v1', {
      field_name: 'documentId',
      field_schema: 'keyword',
    });
    const points = Array.from({ length: 300 }, (_, index) => buildPoint(index));
    await source.vectors.upsert('chunks_v1', { wait: true, points });
    // A multitenant collection (no global graph, a graph per subject) keeps its setting and tenant index.
    await source.vectors.createCollection('memories_v1', {
      vectors: { size: 4, distance: 'Cosine' },
      hnsw_config: { m: 0, payload_m: 16 },
    });
    await source.vectors.createPayloadIndex('memories_v1', {
      field_name: 'subject',
      field_schema: { type: 'keyword', is_tenant: true },
    });

    const result = await runner.run();
    expect(result.manifest.mongo.collections.map(({ name, documents }) => ({ name, documents }))).toEqual([
      { name: 'emptyYet', documents: 0 },
      { name: 'users', documents: 1_200 },
    ]);
    expect(result.manifest.qdrant.collections).toEqual([
      expect.objectContaining({ name: 'chunks_v1', points: 300, payloadIndexes: { documentId: 'keyword' } }),
      expect.objectContaining({ name: 'memories_v1', points: 0 }),
    ]);

    const freshDir = path.join(root, 'fresh');
    const printed: string[] = [];
    const status = await runBackupCli(['restore', result.dir], {
      env: { ...TEST_ENV, DATA_DIR: freshDir, LOG_LEVEL: 'silent' },
      print: (line) => printed.push(line),
    });
    expect(printed).toEqual([`restored ${result.manifest.id}: 1200 documents, 300 points`]);
    expect(status).toBe(0);

    const restored = await startStores(freshDir);
    try {
      const found = await restored.db
        .collection('users')
        .find({}, { sort: { _id: 1 } })
        .toArray();
      expect(found).toEqual(
        [...users].sort((a, b) => a._id.toHexString().localeCompare(b._id.toHexString())),
      );
      expect(found[0]._id).toBeInstanceOf(ObjectId);
      expect(found[0].createdAt).toBeInstanceOf(Date);
      await expect(
        restored.db.collection('users').insertOne({ email: users[5].email }),
      ).rejects.toMatchObject({
        code: 11000,
      });
      expect((await restored.db.listCollections({ name: 'emptyYet' }).toArray()).length).toBe(1);
      const info = await restored.vectors.getCollection('chunks_v1');
      expect(info.points_count).toBe(300);
      expect(Object.keys(info.payload_schema ?? {})).toEqual(['documentId']);
      // Cosine vectors are stored normalised: compare with what the source answers.
      const ids = points.map((point) => point.id);
      const original = await source.vectors.retrieve('chunks_v1', { ids, with_vector: true });
      const back = await restored.vectors.retrieve('chunks_v1', { ids, with_vector: true });
      expect(back).toEqual(original);
      expect(back[41]).toEqual(expect.objectContaining({ id: 42, payload: points[41].payload }));
      const tenants = await restored.vectors.getCollection('memories_v1');
      expect(tenants.config.hnsw_config).toMatchObject({ m: 0, payload_m: 16 });
      expect(tenants.payload_schema?.subject).toMatchObject({ params: { is_tenant: true } });
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore over existing data and changes nothing', async () => {
    const [latest] = (await runner.list()).slice(-1);
    const printed: string[] = [];
    const before = await source.db.collection('users').countDocuments();
    await source.close();
    try {
      const status = await runBackupCli(['restore', latest], {
        env: { ...TEST_ENV, DATA_DIR: source.dataDir, LOG_LEVEL: 'silent' },
        print: (line) => printed.push(line),
      });
      expect(status).toBe(1);
      expect(printed).toEqual([
        'restore failed: Refusing to restore over existing data: mongo:users, qdrant:chunks_v1, qdrant:memories_v1. Restore into empty stores.',
      ]);
    } finally {
      source = await startStores(source.dataDir);
      runner = await runnerOf(source);
    }
    expect(await source.db.collection('users').countDocuments()).toBe(before);
  });

  it('keeps the newest BACKUP_RETAIN snapshots and removes a partial one left by a crash', async () => {
    await fs.mkdir(path.join(backupsDir(), '2026-01-01T00-00-00-000Z.partial'), { recursive: true });
    clock.advance(24 * 3_600_000);
    const second = await runner.run();
    clock.advance(24 * 3_600_000);
    const third = await runner.run();
    expect(third.removed).toHaveLength(1);
    expect(await fs.readdir(backupsDir())).toEqual([second.manifest.id, third.manifest.id]);
    expect((await readManifest(third.dir)).mongo.collections.map((entry) => entry.name)).toContain('users');
  });

  it('answers a usage line for a bad command', async () => {
    const printed: string[] = [];
    expect(await runBackupCli(['restore'], { print: (line) => printed.push(line) })).toBe(2);
    expect(printed).toEqual(['usage: npm run backup | npm run restore -- <snapshot directory or id>']);
  });
});
