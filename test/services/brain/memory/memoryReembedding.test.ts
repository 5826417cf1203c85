import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../../../helpers/eventually';
import { SERVICE_TOKEN, startMemoryPlatform } from './memoryPlatform';

const SUBJECT = 'npc:village:innkeeper';
const REMEMBERED = [
  'My favourite drink is a cortado with oat milk.',
  'I keep my spare sword in the chapel crypt.',
  'The weather has been awful all week.',
];

describe('moving memories into the sentence encoder’s space', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-reembed-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('re-embeds memories stored on the chain path in the background, shows it in /brain/stats, then recalls by meaning', async () => {
    const before = await startMemoryPlatform({ DATA_DIR: dataDir, BRAIN_MEMORY_EMBEDDER: 'chain' });
    try {
      expect((await before.stats()).memory_vectors).toBeNull();
      for (const content of REMEMBERED)
        await before
          .as(SERVICE_TOKEN)
          .post('/brain/memory/remember', { subject: SUBJECT, content })
          .expect(201);
    } finally {
      await before.platform.stop();
    }

    const after = await startMemoryPlatform({ DATA_DIR: dataDir, BRAIN_MEMORY_EMBEDDER: 'neural' });
    try {
      const done = await eventually(
        async () => (await after.stats()).memory_vectors,
        { model: 'use-lite-v1-512', state: 'done', reembedded: 3, pending: 0, oldest_pending_at: null },
        60_000,
        50,
      );
      expect(done).toMatchObject({ state: 'done' });
      const recall = await after
        .as(SERVICE_TOKEN)
        .post('/brain/memory/recall', { subject: SUBJECT, query: 'what coffee do I like?', limit: 3 })
        .expect(200);
      expect(recall.body.hits[0].content).toBe(REMEMBERED[0]);
    } finally {
      await after.platform.stop();
    }
  }, 90_000);
});
