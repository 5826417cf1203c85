import fs from 'node:fs';
import path from 'node:path';
import { Collection } from '../collection';
import type { CollectionConfig } from '../collectionConfig';
import type { PayloadIndexSpec } from '../payloadIndexSpec';
import {
  RecordAppender,
  readRecords,
  renameDurably,
  writeRecordFileAtomically,
  writeRecordFileInSlices,
} from './recordFile';
import { decodeOp, decodeRecord, encodeOp, encodeRecord, type CollectionOp } from './recordCodec';
import type { PointId } from '../pointId';
import type { Payload } from '../payload';

const CONFIG_FILE = 'config.json';
const WAL_FILE = 'wal.log';
const SNAPSHOT_FILE = 'snapshot.bin';
const SNAPSHOT_CHUNK = 1000;

/** Storage settings shared by every collection of an engine. */
export interface StoreOptions {
  /** fsync every log append (survives power loss, not only a killed process). Default false. */
  fsync: boolean;
  /** Log size past which the collection is snapshotted and the log emptied. */
  compactAfterBytes: number;
}

interface SnapshotHeader {
  seq: number;
  payloadIndexes: [string, PayloadIndexSpec][];
  /** Graph file (relative) and the labels it does not cover, per vector name. */
  graphs: Record<string, { file: string; pending: number[] }>;
}

/**
 * One collection on disk: `config.json` (written once), `snapshot.bin` (the state at some sequence number,
 * plus saved HNSW graphs) and `wal.log` (operations after it, one checksummed record each). Loading reads the
 * snapshot and replays newer log records; a torn last record, from a crash mid-write, is dropped.
 */
export class CollectionStore {
  private graphsSaved: boolean;
  /** The snapshot being written in the background, if any; `close` abandons it. */
  private background?: { abandoned: boolean; done: Promise<void> };

  private constructor(
    readonly dir: string,
    readonly collection: Collection,
    private readonly wal: RecordAppender,
    private readonly options: StoreOptions,
  ) {
    this.graphsSaved = [...collection.vectors.values()].some((index) => index.hasGlobalGraph);
  }

  /**
   * True when a global HNSW graph exists but none is on disk yet, so a restart would rebuild it from scratch.
   * Partition graphs (`m: 0` with `payload_m`) are never saved: they are rebuilt in the background.
   */
  get graphsUnsaved(): boolean {
    return !this.graphsSaved && [...this.collection.vectors.values()].some((index) => index.hasGlobalGraph);
  }

  /** Creates the collection directory atomically (a crash leaves either nothing or a complete collection). */
  static create(dir: string, name: string, config: CollectionConfig, options: StoreOptions): CollectionStore {
    const staging = path.join(path.dirname(dir), `.creating-${process.pid}-${Date.now()}`);
    fs.mkdirSync(staging, { recursive: true });
    const configFile = path.join(staging, CONFIG_FILE);
    fs.writeFileSync(configFile, JSON.stringify({ name, config }));
    const fd = fs.openSync(configFile, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    renameDurably(staging, dir);
    return new CollectionStore(
      dir,
      new Collection(name, config),
      new RecordAppender(path.join(dir, WAL_FILE), 0, options.fsync),
      options,
    );
  }

  /** Loads a collection directory written by `create`. */
  static load(dir: string, options: StoreOptions): CollectionStore {
    const { name, config } = JSON.parse(fs.readFileSync(path.join(dir, CONFIG_FILE), 'utf8')) as {
      name: string;
      config: CollectionConfig;
    };
    const collection = new Collection(name, config);
    const snapshotSeq = loadSnapshot(dir, collection);
    const { bodies, validBytes } = readRecords(path.join(dir, WAL_FILE));
    for (const body of bodies) {
      const { seq, op } = decodeOp(body);
      if (seq > snapshotSeq) collection.apply(seq, op);
    }
    return new CollectionStore(
      dir,
      collection,
      new RecordAppender(path.join(dir, WAL_FILE), validBytes, options.fsync),
      options,
    );
  }

  /**
   * Logs an operation, then applies it. Once this returns the operation survives a killed process. The caller
   * compacts (`snapshotInBackground`) when `wantsCompaction` says so.
   */
  commit(op: CollectionOp): number {
    const seq = this.collection.lastSeq + 1;
    this.wal.append(encodeOp(seq, op));
    this.collection.apply(seq, op);
    return seq;
  }

  /** True when the log has passed `compactAfterBytes` and no snapshot is being written. */
  get wantsCompaction(): boolean {
    return !this.background && this.wal.size > this.options.compactAfterBytes;
  }

  /** True when the log holds operations a snapshot would fold in. */
  get hasLog(): boolean {
    return this.wal.size > 0;
  }

  /** Writes the whole state (and HNSW graphs) to a new snapshot, then empties the log, in one synchronous step. */
  snapshot(): void {
    const { header, bodies } = this.capture(false);
    writeRecordFileAtomically(path.join(this.dir, SNAPSHOT_FILE), bodies);
    this.wal.reset();
    this.settle(header);
  }

  /**
   * Writes the same snapshot as `snapshot` without holding the event loop: the state is captured at once (the HNSW
   * graphs saved, the points and a copy of their vectors taken), then encoded and written a chunk of points per task
   * while writes go on; once the file is in place, the log keeps only the records appended meanwhile (a restart
   * replays them over the snapshot). One at a time: a call while one is being written returns that one. `close`
   * abandons it (and writes its own). A 20k-chunk brain's snapshot held the loop for 0.1-2.2 s (stop 48).
   */
  snapshotInBackground(): Promise<void> {
    if (this.background) return this.background.done;
    const job = { abandoned: false, done: Promise.resolve() };
    this.background = job;
    job.done = this.writeInBackground(job).finally(() => {
      if (this.background === job) this.background = undefined;
    });
    return job.done;
  }

  private async writeInBackground(job: { abandoned: boolean }): Promise<void> {
    const folded = this.wal.size;
    const { header, bodies } = this.capture(true);
    const file = path.join(this.dir, SNAPSHOT_FILE);
    if (!(await writeRecordFileInSlices(file, bodies, () => job.abandoned))) return;
    // A `close` between the rename and here wrote a newer snapshot and emptied the log itself.
    if (job.abandoned) return;
    this.wal.dropBefore(folded);
    this.settle(header);
  }

  /**
   * Saves the graphs and takes what a snapshot of the current state holds; `bodies` encodes it lazily. `frozen`: the
   * vectors are copied, so writes may go on while `bodies` is read (else it must be read before the next write).
   */
  private capture(frozen: boolean): { header: SnapshotHeader; bodies: Iterable<Buffer> } {
    const { collection } = this;
    const seq = collection.lastSeq;
    const graphs: SnapshotHeader['graphs'] = {};
    [...collection.vectors.entries()].forEach(([name, index], position) => {
      const file = `graph-${position}-${seq}.hnsw`;
      const pending = index.saveGraph(path.join(this.dir, `${file}.tmp`));
      if (pending === null) return;
      renameDurably(path.join(this.dir, `${file}.tmp`), path.join(this.dir, file));
      graphs[name] = { file, pending };
    });
    const header: SnapshotHeader = { seq, payloadIndexes: [...collection.payloadIndexes], graphs };
    // Payloads are replaced on change, never edited in place, so keeping references freezes them.
    const points = collection.inIdOrder().map(({ id, payload, label }) => ({ id, payload, label }));
    const labels = points.map((point) => point.label);
    const vectors = [...collection.vectors].map(
      ([name, index]) => [name, index.vectorsOf(labels, frozen)] as const,
    );
    return { header, bodies: snapshotBodies(header, points, vectors) };
  }

  /** After a snapshot is in place: notes the saved graphs and removes the graph files it does not name. */
  private settle(header: SnapshotHeader): void {
    const { graphs } = header;
    this.graphsSaved = Object.keys(graphs).length > 0;
    const kept = new Set(Object.values(graphs).map((graph) => graph.file));
    for (const file of fs.readdirSync(this.dir)) {
      if (file.startsWith('graph-') && !kept.has(file)) fs.rmSync(path.join(this.dir, file), { force: true });
    }
  }

  /** Snapshots when there is anything to fold in, then releases the log file. */
  close(): void {
    if (this.background) this.background.abandoned = true;
    if (this.hasLog) this.snapshot();
    this.wal.close();
  }

  /** Removes the collection's files (after `close`). */
  destroy(): void {
    // Dot-prefixed names are never collection directories, so a crash mid-delete is cleaned up at load.
    const doomed = path.join(path.dirname(this.dir), `.deleting-${Date.now()}-${path.basename(this.dir)}`);
    fs.renameSync(this.dir, doomed);
    fs.rmSync(doomed, { recursive: true, force: true });
  }
}

/** A point as a snapshot holds it, and its vectors by name (label → vector, a copy apart from later writes). */
type FrozenPoint = { id: PointId; payload: Payload; label: number };
type FrozenVectors = ReadonlyArray<readonly [string, ReadonlyMap<number, Float32Array>]>;

function* snapshotBodies(
  header: SnapshotHeader,
  points: readonly FrozenPoint[],
  vectors: FrozenVectors,
): Generator<Buffer> {
  yield encodeRecord({ ...header });
  for (let start = 0; start < points.length; start += SNAPSHOT_CHUNK) {
    const chunk = points.slice(start, start + SNAPSHOT_CHUNK).map((point) => {
      const stored: Record<string, Float32Array> = {};
      for (const [name, copies] of vectors) {
        const vector = copies.get(point.label);
        if (vector) stored[name] = vector;
      }
      return { ...point, vectors: stored };
    });
    yield encodeRecord({}, chunk);
  }
}

/** Restores the snapshot into `collection`; returns its sequence number (0 when there is none). */
function loadSnapshot(dir: string, collection: Collection): number {
  const { bodies } = readRecords(path.join(dir, SNAPSHOT_FILE));
  if (bodies.length === 0) return 0;
  const header = decodeRecord(bodies[0]).header as unknown as SnapshotHeader;
  for (const body of bodies.slice(1)) {
    collection.apply(header.seq, { type: 'upsert', points: decodeRecord(body).points ?? [] });
  }
  for (const [field, schema] of header.payloadIndexes)
    collection.apply(header.seq, { type: 'create_index', field, schema });
  collection.reclaimFreeLabels();
  for (const [name, graph] of Object.entries(header.graphs)) {
    collection.vectors.get(name)?.loadGraph(path.join(dir, graph.file), graph.pending);
  }
  collection.lastSeq = header.seq;
  return header.seq;
}
