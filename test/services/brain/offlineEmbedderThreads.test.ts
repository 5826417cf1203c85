import request from 'supertest';
import { OfflineEmbedderPool } from '../../../ai/embeddings/offlineEmbedderPool';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

/** Three documents of a few sections each: enough chunks that the backfill and RAPTOR embed batches. */
const DOCUMENTS = ['ledger', 'breaker', 'quest'].map((topic) => ({
  source: `docs/${topic}.md`,
  index: 'docs',
  text:
    `# ${topic}\n\n` +
    ['balance', 'threshold', 'reward', 'journal', 'recovery', 'escrow']
      .map(
        (word) => `## ${topic} ${word}\n\nThe ${topic} ${word} is kept by the \`${topic}Service\` store.\n`,
      )
      .join('\n'),
}));

type Hit = { source: string; score: number };

/** A platform with BRAIN_EMBEDDER_THREADS as given, the documents ingested and enriched, and what it answers. */
async function ingestedWith(threads: string) {
  const brain = await startBrainPlatform({ BRAIN_EMBEDDER_THREADS: threads });
  await brain.ingest(DOCUMENTS).expect(200);
  await brain.enriched();
  const semantic = await brain
    .search({ query: 'who keeps the escrow balance', strategy: 'semantic' })
    .expect(200);
  const stats = await brain.stats();
  const v2 = await request(brain.url)
    .post('/brain/search/v2')
    .send({ query: 'ledger escrow', strategy: 'raptor' })
    .expect(200);
  return { brain, semantic: semantic.body.hits as Hit[], stats, raptorHits: v2.body.hits.length as number };
}

describe('the offline document embedder in worker threads (BRAIN_EMBEDDER_THREADS)', () => {
  jest.setTimeout(120_000);
  let platforms: BrainTestPlatform[] = [];
  afterEach(async () => {
    await Promise.all(platforms.map((p) => p.stop()));
    platforms = [];
  });

  it('enriches in the thread with the same vectors, graph and trees as on the main thread, and closes it', async () => {
    const embed = jest.spyOn(OfflineEmbedderPool.prototype, 'embed');
    const extract = jest.spyOn(OfflineEmbedderPool.prototype, 'extractEntities');
    const threaded = await ingestedWith('1');
    const inThread = await ingestedWith('0');
    platforms = [threaded.brain, inThread.brain];

    // Only the threaded platform has a pool; it embedded the chunks' batches and found the entities in its thread.
    const pool = embed.mock.contexts[0] as OfflineEmbedderPool;
    expect(new Set(embed.mock.contexts)).toEqual(new Set([pool]));
    expect(pool.counts.threaded).toBeGreaterThanOrEqual(18);
    expect(pool.started).toBe(true);
    expect(extract).toHaveBeenCalled();

    // Findable and enriched alike: the same semantic hits and scores, entities, relations and tree shape.
    expect(threaded.semantic.length).toBeGreaterThan(0);
    expect(threaded.semantic).toEqual(inThread.semantic);
    const shape = (stats: Record<string, unknown>) => {
      const { entities, relations } = stats.graph as { entities: number; relations: number };
      return {
        entities,
        relations,
        raptorLevels: (stats.raptor as { nodes_per_level: number[] }).nodes_per_level,
      };
    };
    expect(shape(threaded.stats)).toEqual(shape(inThread.stats));
    expect(shape(threaded.stats).entities).toBeGreaterThan(0);
    expect(threaded.raptorHits).toBeGreaterThan(0);

    await threaded.brain.stop();
    platforms = [inThread.brain];
    expect(pool.started).toBe(false);
  });
});
