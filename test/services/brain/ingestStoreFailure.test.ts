import type { Model } from 'mongoose';
import { type BrainTestPlatform, startBrainPlatform } from './brainPlatform';

const doc = (source: string, word: string) => ({
  index: 'docs',
  source,
  title: source,
  text: `# ${source}\n\nThe ${word} is kept in the west tower, beside the lantern.\n`,
});

/**
 * A store that fails part-way through an ingest (a full disk, MongoDB going away between two of its writes): the
 * ingest answers a problem, what was acknowledged before stays, nothing of the failed batch is findable half-written,
 * and the same batch sent again is ingested whole, each chunk held once.
 */
describe('brain ingest when its store fails mid-write', () => {
  let brain: BrainTestPlatform;
  let chunks: Model<never>;
  let documents: Model<never>;

  beforeAll(async () => {
    brain = await startBrainPlatform();
    const connection = brain.platform.stores.mongo;
    chunks = connection.model<never>('BrainChunk');
    documents = connection.model<never>('BrainDocument');
  });
  afterAll(() => brain.stop());
  afterEach(() => jest.restoreAllMocks());

  const found = async (word: string) =>
    (await brain.search({ query: word, strategy: 'fulltext', limit: 5 }).expect(200)).body.hits.map(
      (h: { source: string }) => h.source,
    );
  const full = () => Object.assign(new Error('No space left on device'), { code: 'ENOSPC' });

  const gone = () =>
    Object.assign(new Error('connection 3 to 127.0.0.1:27017 closed'), { name: 'MongoNetworkError' });
  const steps = [
    {
      step: 'its chunks',
      // Chunks and documents go through the driver's collection (mongoChunkStore.ts).
      fail: () => jest.spyOn(chunks.collection, 'bulkWrite').mockRejectedValueOnce(full()),
      words: ['quillon', 'pommel', 'ricasso'],
    },
    {
      step: 'its documents, after the chunks',
      fail: () => jest.spyOn(documents.collection, 'bulkWrite').mockRejectedValueOnce(full()),
      words: ['crossguard', 'scabbard', 'baldric'],
    },
    {
      step: 'its documents, MongoDB gone',
      fail: () => jest.spyOn(documents.collection, 'bulkWrite').mockRejectedValueOnce(gone()),
      words: ['gorget', 'vambrace', 'pauldron'],
    },
  ];
  for (const { step, fail, words } of steps) {
    it(`loses nothing acknowledged when the store fails while writing ${step}, and takes the retry whole`, async () => {
      const [kept, first, second] = words;
      const tag = kept;
      await brain.ingest([doc(`docs/kept-${tag}.md`, kept)]).expect(200);
      const before = (await brain.stats()).total_chunks;

      fail();
      const batch = [doc(`docs/first-${tag}.md`, first), doc(`docs/second-${tag}.md`, second)];
      const refused = await brain.ingest(batch);
      expect([refused.status, refused.body.code]).toEqual([503, 'BRAIN_STORE_UNAVAILABLE']);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.stringify(refused.body)).not.toMatch(/space left|ENOSPC|27017|Mongo/);

      expect(await found(kept)).toEqual([`docs/kept-${tag}.md`]);
      expect(await found(first)).toEqual([]);

      const retried = await brain.ingest(batch).expect(200);
      expect(retried.body.documents.map((d: { status: string }) => d.status)).toEqual(['created', 'created']);
      expect(await found(first)).toEqual([`docs/first-${tag}.md`]);
      expect(await found(second)).toEqual([`docs/second-${tag}.md`]);
      expect((await brain.stats()).total_chunks).toBe(before + 2);
    });
  }
});
