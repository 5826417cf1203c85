import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

/** Two pages that share no word with the question below; only one of them is about coffee. */
const DOCUMENTS = [
  {
    source: 'docs/tavern.md',
    index: 'docs',
    text: '# The tavern\n\nThe innkeeper serves a cortado with oat milk to every guest at dawn.\n',
  },
  {
    source: 'docs/armoury.md',
    index: 'docs',
    text: '# The armoury\n\nSpare swords and shields are stored in the chapel crypt below the keep.\n',
  },
];

type Hit = { source: string; score: number };

describe('documents in the fused vector space (BRAIN_LOCAL_EMBEDDER=fused)', () => {
  jest.setTimeout(120_000);
  let brain: BrainTestPlatform | undefined;
  afterEach(async () => {
    await brain?.stop();
    brain = undefined;
  });

  it('embeds chunks with WordNet and the sentence encoder side by side, and finds a page by its meaning', async () => {
    brain = await startBrainPlatform({ BRAIN_LOCAL_EMBEDDER: 'fused', BRAIN_EMBEDDER_THREADS: '1' });
    await brain.ingest(DOCUMENTS).expect(200);
    await brain.enriched();
    const stats = await brain.stats();
    expect(stats.vectors).toEqual([
      { model: 'local-sem-v1-384*2+use-lite-v1-512*1', dimensions: 896, count: 2 },
    ]);
    const { body } = await brain
      .search({ query: 'which hot drink is on offer in the morning?', strategy: 'semantic' })
      .expect(200);
    const hits = body.hits as Hit[];
    expect(hits.map((h) => h.source)).toEqual(['docs/tavern.md', 'docs/armoury.md']);
    expect(hits[0].score).toBeGreaterThan(hits[1].score + 0.03);
  });

  it('moves documents of the WordNet space into the fused space when the server restarts with it', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-fused-'));
    try {
      brain = await startBrainPlatform({ DATA_DIR: dataDir });
      await brain.ingest(DOCUMENTS).expect(200);
      await brain.enriched();
      const before = (await brain.stats()).vectors as { model: string; count: number }[];
      expect(before.filter((s) => s.count > 0)).toEqual([
        { model: 'local-sem-v1-384', dimensions: 384, count: 2 },
      ]);
      await brain.stop();

      brain = await startBrainPlatform({ DATA_DIR: dataDir, BRAIN_LOCAL_EMBEDDER: 'fused' });
      await brain.enriched();
      const after = (await brain.stats()).vectors as { model: string; count: number }[];
      expect(after.filter((s) => s.count > 0)).toEqual([
        { model: 'local-sem-v1-384*2+use-lite-v1-512*1', dimensions: 896, count: 2 },
      ]);
      const { body } = await brain
        .search({ query: 'which hot drink is on offer in the morning?', strategy: 'semantic' })
        .expect(200);
      expect(body.degraded).toBe(false);
      expect((body.hits as Hit[])[0].source).toBe('docs/tavern.md');
    } finally {
      await brain?.stop();
      brain = undefined;
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
