/**
 * Test target for the Mongo behaviour suites: an embedded engine in a fresh temp dir, or, when MONGO_TEST_URI is
 * set, a real MongoDB with a unique database name, so the same tests prove the engine matches the real server.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import mongoose, { type Connection } from 'mongoose';
import { startMongoEngine, type MongoEngine, type MongoEngineOptions } from '../../../embedded/mongo';

/** A database to test against and how to reach it. */
export interface MongoTarget {
  /** Connection string including the database name. */
  uri: string;
  dbName: string;
  client: MongoClient;
  db: Db;
  /** True when running against MONGO_TEST_URI instead of the embedded engine. */
  realServer: boolean;
  close(): Promise<void>;
}

/** Makes a temp directory under the OS temp dir. */
export function makeTempDir(prefix = 'forge-mongo-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Starts an engine in a temp dir; `close` stops it and removes the dir. */
export async function startTempEngine(
  overrides: Partial<MongoEngineOptions> = {},
): Promise<{ engine: MongoEngine; dir: string; close(): Promise<void> }> {
  const dir = overrides.dir ?? (await makeTempDir());
  const engine = await startMongoEngine({ ttlMonitorIntervalMs: 50, ...overrides, dir });
  return {
    engine,
    dir,
    close: async () => {
      await engine.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

function withDatabase(uri: string, dbName: string): string {
  const url = new URL(uri);
  url.pathname = `/${dbName}`;
  return url.toString();
}

/** Connects to MONGO_TEST_URI (unique database) or to a fresh embedded engine. */
export async function startMongoTarget(overrides: Partial<MongoEngineOptions> = {}): Promise<MongoTarget> {
  const dbName = `forge_test_${randomBytes(6).toString('hex')}`;
  const external = process.env.MONGO_TEST_URI;
  const temp = external ? undefined : await startTempEngine(overrides);
  const uri = withDatabase(external ?? temp!.engine.uri, dbName);
  const client = await MongoClient.connect(uri);
  const db = client.db(dbName);
  return {
    uri,
    dbName,
    client,
    db,
    realServer: Boolean(external),
    close: async () => {
      if (external) await db.dropDatabase();
      await client.close();
      await temp?.close();
    },
  };
}

/**
 * A mongoose connection to a fresh target for the enclosing `describe` (opened in `beforeAll`, closed in
 * `afterAll`); call the answer inside tests.
 */
export function useMongooseTarget(): () => Connection {
  let target: MongoTarget | undefined;
  let connection: Connection | undefined;
  beforeAll(async () => {
    target = await startMongoTarget();
    connection = await mongoose.createConnection(target.uri).asPromise();
  });
  afterAll(async () => {
    await connection?.close();
    await target?.close();
  });
  return () => {
    if (!connection) throw new Error('useMongooseTarget: the connection opens in beforeAll');
    return connection;
  };
}
