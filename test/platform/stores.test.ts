import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { MongoClient } from 'mongodb';
import { QdrantClient } from '@qdrant/js-client-rest';
import { startMongoEngine, type MongoEngine } from '../../embedded/mongo';
import { startQdrantEngine, type QdrantEngine } from '../../embedded/qdrant';
import { embeddedEngines } from '../../embedded';
import { loadConfig } from '../../platform/config';
import { silentLogger } from '../../platform/logger';
import { Platform } from '../../platform/platform';
import { startTestPlatform, TEST_ENV, type TestPlatform } from '../helpers/platform';

/** What the platform left in its DATA_DIR: the embedded engines each keep their data in a subdirectory. */
async function dataDirEntries(server: TestPlatform): Promise<string[]> {
  return (await fs.readdir(server.config.DATA_DIR)).sort();
}

describe('store selection', () => {
  let server: TestPlatform | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('starts the embedded MongoDB and Qdrant engines under DATA_DIR when no URL is set', async () => {
    server = await startTestPlatform();
    expect(await dataDirEntries(server)).toEqual(['mongo', 'qdrant']);
    expect(server.logs.withMessage('embedded MongoDB engine started (MONGODB_URI unset)')).toHaveLength(1);
    expect(server.logs.withMessage('embedded Qdrant engine started (QDRANT_URL unset)')).toHaveLength(1);
    expect((await request(server.url).get('/readyz')).status).toBe(200);
  });

  describe('with MONGODB_URI and QDRANT_URL set', () => {
    let dir: string;
    let mongo: MongoEngine;
    let qdrant: QdrantEngine;

    beforeAll(async () => {
      // Stand-ins for real servers: separately started engines the platform must use instead of its own.
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-external-stores-'));
      mongo = await startMongoEngine({ dir: path.join(dir, 'mongo') });
      qdrant = await startQdrantEngine({ dir: path.join(dir, 'qdrant') });
    });
    afterAll(async () => {
      await mongo.close();
      await qdrant.close();
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('connects to the configured servers and starts no engine', async () => {
      server = await startTestPlatform({
        MONGODB_URI: mongo.uri,
        MONGODB_DB: 'external',
        QDRANT_URL: qdrant.url,
      });
      expect(await dataDirEntries(server)).toEqual([]);
      expect(
        server.logs.lines.filter((line) => /^embedded .* engine started/.test(String(line.msg))),
      ).toEqual([]);

      await server.platform.stores.mongo.collection('marks').insertOne({ _id: 'seen' as never });
      await server.platform.stores.qdrant.createCollection('marks', {
        vectors: { size: 2, distance: 'Dot' },
      });
      const direct = await MongoClient.connect(mongo.uri);
      expect(await direct.db('external').collection('marks').countDocuments()).toBe(1);
      await direct.close();
      const qdrantDirect = new QdrantClient({ url: qdrant.url, checkCompatibility: false });
      expect(await qdrantDirect.collectionExists('marks')).toEqual({ exists: true });
      expect((await request(server.url).get('/readyz')).status).toBe(200);
    });
  });

  it('fails start-up naming QDRANT_URL when the configured Qdrant does not answer', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-unreachable-'));
    try {
      const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, QDRANT_URL: 'http://127.0.0.1:1' });
      await expect(
        Platform.start({ config, logger: silentLogger, engines: embeddedEngines }),
      ).rejects.toThrow(/^QDRANT_URL: cannot reach Qdrant \(/);
      // What was opened before the failure (the embedded MongoDB engine) was closed again: its lock is free.
      const engine = await startMongoEngine({ dir: path.join(dataDir, 'mongo') });
      await engine.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
