import { FullTextFollower } from '../../../ai/corpus/fullTextFollower';
import { InMemoryChunkStore } from '../../../ai/corpus/memoryChunkStore';
import type { DocumentRecord } from '../../../models/corpusRecords';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { buildChunk } from '../factories';

function documentOf(id: string, chunkIds: string[], ingestedAt: Date): DocumentRecord {
  return {
    id,
    index: 'docs',
    source: `docs/${id}.md`,
    title: id,
    tags: [],
    contentHash: chunkIds.join(),
    byteLength: 10,
    tokenCount: 2,
    chunkIds,
    embeddingModel: 'local-hash-v1-384',
    ingestedAt,
  };
}

describe('FullTextFollower', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');

  async function save(store: InMemoryChunkStore, id: string, texts: string[], at: Date) {
    const chunks = texts.map((text) => buildChunk({ text, documentId: id, source: `docs/${id}.md` }));
    await store.saveDocument({
      document: documentOf(
        id,
        chunks.map((c) => c.id),
        at,
      ),
      upserts: chunks,
      removedChunkIds: [],
    });
  }

  const sources = (index: FullTextIndex, query: string) => index.search(query).map((h) => h.text);

  it('rebuilds the index from the store at start-up', async () => {
    const store = new InMemoryChunkStore();
    await save(store, 'a', ['wombat burrows', 'kangaroo hops'], t0);
    const index = new FullTextIndex();

    expect(await new FullTextFollower(store, index).rebuild()).toBe(2);
    expect(sources(index, 'wombat')).toEqual(['wombat burrows']);
  });

  it('applies documents other processes ingested and skips those it already has', async () => {
    const store = new InMemoryChunkStore();
    await save(store, 'a', ['wombat burrows'], t0);
    const index = new FullTextIndex();
    const follower = new FullTextFollower(store, index);
    await follower.rebuild();

    await save(store, 'a', ['wombat digs'], new Date(t0.getTime() + 1000));
    await save(store, 'b', ['wombat sleeps'], new Date(t0.getTime() + 2000));

    expect(await follower.catchUp()).toBe(2);
    expect(sources(index, 'wombat').sort()).toEqual(['wombat digs', 'wombat sleeps']);
    expect(await follower.catchUp()).toBe(0);
  });

  it('re-reads a window behind the latest ingest seen, for processes whose clocks lag', async () => {
    const store = new InMemoryChunkStore();
    await save(store, 'a', ['wombat burrows'], t0);
    const index = new FullTextIndex();
    const follower = new FullTextFollower(store, index, { skewMs: 60_000 });
    await follower.rebuild();

    await save(store, 'late', ['numbat eats termites'], new Date(t0.getTime() - 30_000));
    await save(store, 'too-late', ['quoll hunts'], new Date(t0.getTime() - 120_000));

    expect(await follower.catchUp()).toBe(1);
    expect(sources(index, 'numbat')).toEqual(['numbat eats termites']);
    expect(sources(index, 'quoll')).toEqual([]);
  });
});
