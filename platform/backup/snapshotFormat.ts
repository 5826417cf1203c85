import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';

/** Version of the snapshot layout this code writes and reads. */
export const SNAPSHOT_FORMAT = 1;

/** A MongoDB collection in a snapshot: its name, how many documents it holds and its index specs (no `_id_`). */
export interface MongoCollectionEntry {
  name: string;
  documents: number;
  indexes: Record<string, unknown>[];
}

/** A Qdrant collection in a snapshot: its creation parameters, payload indexes and point count. */
export interface QdrantCollectionEntry {
  name: string;
  points: number;
  /** The `createCollection` body that recreates it (vectors, HNSW, indexing threshold, metadata). */
  create: Record<string, unknown>;
  /** Payload field → the `field_schema` its index was created with. */
  payloadIndexes: Record<string, unknown>;
}

/**
 * `manifest.json`, written last: a snapshot directory without one is incomplete. Each collection's data is one
 * JSON line per record in `mongo/<name>.jsonl` (canonical Extended JSON, so ObjectIds, dates and binaries come back
 * as they were) and `qdrant/<name>.jsonl` (`{id, vector, payload}`).
 */
export interface SnapshotManifest {
  format: number;
  id: string;
  startedAt: string;
  finishedAt: string;
  mongo: { database: string; collections: MongoCollectionEntry[] };
  qdrant: { collections: QdrantCollectionEntry[] };
}

/** File of a collection's records inside a snapshot (`mongo` or `qdrant` part); names are URI-encoded. */
export function recordsFile(snapshotDir: string, part: 'mongo' | 'qdrant', collection: string): string {
  return path.join(snapshotDir, part, `${encodeURIComponent(collection)}.jsonl`);
}

/** Reads a snapshot's manifest; fails naming the directory when it is missing, incomplete or of another format. */
export async function readManifest(snapshotDir: string): Promise<SnapshotManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(snapshotDir, 'manifest.json'), 'utf8');
  } catch (error) {
    throw new Error(`${snapshotDir} is not a complete snapshot (no manifest.json)`, { cause: error });
  }
  const manifest = JSON.parse(text) as SnapshotManifest;
  if (manifest.format !== SNAPSHOT_FORMAT) {
    throw new Error(
      `${snapshotDir} has snapshot format ${manifest.format}; this build reads ${SNAPSHOT_FORMAT}`,
    );
  }
  return manifest;
}

/** Appends lines to a records file in batches (one write per `flushEvery` records). */
export class RecordsWriter {
  private pending: string[] = [];
  count = 0;

  constructor(
    private readonly file: string,
    private readonly flushEvery = 500,
  ) {}

  async add(line: string): Promise<void> {
    this.pending.push(line);
    this.count += 1;
    if (this.pending.length >= this.flushEvery) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await fs.appendFile(this.file, `${this.pending.join('\n')}\n`);
    this.pending = [];
  }

  /** Writes what is pending; the file exists afterwards even for an empty collection. */
  async finish(): Promise<void> {
    await this.flush();
    await fs.appendFile(this.file, '');
  }
}

/** Reads a records file a batch at a time (`batchSize` parsed lines per call of `onBatch`). */
export async function readRecords(
  file: string,
  batchSize: number,
  onBatch: (lines: string[]) => Promise<void>,
): Promise<void> {
  const lines = readline.createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: string[] = [];
  for await (const line of lines) {
    if (line.length === 0) continue;
    batch.push(line);
    if (batch.length >= batchSize) {
      await onBatch(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await onBatch(batch);
}
