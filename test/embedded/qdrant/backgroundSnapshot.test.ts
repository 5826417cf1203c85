import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Collection } from '../../../embedded/qdrant/collection';
import { resolveCollectionConfig } from '../../../embedded/qdrant/collectionConfig';
import { CollectionStore, type StoreOptions } from '../../../embedded/qdrant/storage/collectionStore';
import type { StoredPoint } from '../../../embedded/qdrant/storage/recordCodec';
import { turnsDuring } from '../../helpers/loopStall';

const OPTIONS: StoreOptions = { fsync: false, compactAfterBytes: 1 << 30 };
const CONFIG = resolveCollectionConfig({ vectors: { size: 8, distance: 'Dot' } });

function points(from: number, count: number): StoredPoint[] {
  return Array.from({ length: count }, (_, i) => {
    const id = from + i;
    const vector = Float32Array.from({ length: 8 }, (_, d) => Math.sin(id * 8 + d));
    return { id, payload: { text: `chunk ${id} of the corpus`, n: id }, vectors: { '': vector } };
  });
}

/** Every point of a collection with its payload and vector, in id order. */
function contents(collection: Collection) {
  const index = collection.vectors.get('')!;
  return collection
    .inIdOrder()
    .map((point) => [
      point.id,
      point.payload,
      index.has(point.label) ? [...index.vector(point.label)] : null,
    ]);
}

/**
 * The embedded Qdrant's snapshots while it serves (after an HNSW build, at compaction) are written a chunk of points
 * per task (bench/README.md, issue 37, stop 48): the same file as the synchronous snapshot, and nothing written
 * meanwhile is lost.
 */
describe('embedded qdrant: snapshots written in the background', () => {
  let dir: string;
  const stores: CollectionStore[] = [];
  const open = (name: string) => {
    const store = CollectionStore.create(path.join(dir, name), name, CONFIG, OPTIONS);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qdrant-bg-snapshot-'));
  });
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const fill = (store: CollectionStore) => {
    for (let from = 0; from < 5000; from += 500) store.commit({ type: 'upsert', points: points(from, 500) });
    store.commit({ type: 'delete', ids: [5, 4999] });
    store.commit({ type: 'set_payload', ids: [7], payload: { tag: 'kept' } });
  };

  it('writes the same snapshot file as the synchronous snapshot, a chunk of points per turn of the loop', async () => {
    const sync = open('sync');
    const background = open('background');
    fill(sync);
    fill(background);

    sync.snapshot();
    const turns = await turnsDuring(() => background.snapshotInBackground());

    const file = (store: CollectionStore) => fs.readFileSync(path.join(store.dir, 'snapshot.bin'));
    expect(turns).toBeGreaterThanOrEqual(6);
    expect(file(background).equals(file(sync))).toBe(true);
    expect(background.hasLog).toBe(false);
  });

  it('keeps the writes made while the snapshot is written: a restart reads the snapshot and the log kept', async () => {
    const store = open('docs');
    fill(store);
    const snapshotting = store.snapshotInBackground();
    store.commit({ type: 'upsert', points: points(6000, 100) });
    store.commit({ type: 'delete', ids: [10] });
    store.commit({ type: 'set_payload', ids: [11], payload: { tag: 'after' } });
    store.commit({ type: 'upsert', points: points(12, 1).map((p) => ({ ...p, payload: { n: -12 } })) });

    expect(store.snapshotInBackground()).toBe(snapshotting);
    await snapshotting;

    // As after kill -9: the directory as it is, without close's snapshot.
    const restarted = CollectionStore.load(store.dir, OPTIONS);
    stores.push(restarted);
    expect(store.hasLog).toBe(true);
    expect(contents(restarted.collection)).toEqual(contents(store.collection));
    expect(restarted.collection.size).toBe(4998 + 100 - 1);
    expect(restarted.collection.get(11)?.payload).toEqual({
      text: 'chunk 11 of the corpus',
      n: 11,
      tag: 'after',
    });
  });

  it('is abandoned by close, whose own snapshot holds everything', async () => {
    const store = open('docs');
    fill(store);
    const snapshotting = store.snapshotInBackground();
    store.commit({ type: 'upsert', points: points(7000, 10) });
    const before = contents(store.collection);
    store.close();
    stores.splice(stores.indexOf(store), 1);
    await snapshotting;

    const restarted = CollectionStore.load(store.dir, OPTIONS);
    stores.push(restarted);
    expect(contents(restarted.collection)).toEqual(before);
    expect(fs.readdirSync(store.dir).filter((file) => file.endsWith('.tmp'))).toEqual([]);
  });
});
