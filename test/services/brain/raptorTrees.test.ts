import request from 'supertest';
import { brainRaptorNodeModel } from '../../../models/BrainRaptorNode';
import { startBrainPlatform, type BrainTestPlatform } from './brainPlatform';

const TOPICS: Record<string, string[]> = {
  ledger: ['balance', 'transfer', 'escrow', 'refund', 'grant', 'fee'],
  breaker: ['threshold', 'recovery', 'trial', 'gauge', 'failure', 'timeout'],
  quest: ['reward', 'objective', 'dialogue', 'journal', 'stage', 'journey'],
};

/** A markdown document with one section per word of its topic; `edited` appends a sentence to one section. */
function topicDocument(topic: string, edited?: string) {
  const sections = TOPICS[topic].map(
    (word) =>
      `## ${topic} ${word}\n\nThe ${topic} ${word} is kept by the ${topic} service. Each ${word} change ` +
      `is recorded in the ${topic} store.${edited === word ? ' This section was edited.' : ''}\n`,
  );
  return { source: `docs/${topic}.md`, index: 'docs', text: `# ${topic}\n\n${sections.join('\n')}` };
}

type RaptorStats = { state: string; nodes_per_level: number[]; summaries_written: number };

async function readyRaptor(brain: BrainTestPlatform): Promise<RaptorStats> {
  for (let tries = 0; tries < 100; tries++) {
    const raptor = (await brain.stats()).raptor as RaptorStats;
    if (raptor.state === 'ready') return raptor;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the RAPTOR trees did not become ready within 10 s');
}

describe('RAPTOR trees of the brain', () => {
  let brain: BrainTestPlatform;
  const search = (body: object) => request(brain.url).post('/brain/search/v2').send(body);

  beforeAll(async () => {
    brain = await startBrainPlatform();
    await brain.ingest(Object.keys(TOPICS).map((topic) => topicDocument(topic))).expect(200);
  });
  afterAll(() => brain?.stop());

  it('builds summary levels over the chunks and stores the summaries in MongoDB with vectors in Qdrant', async () => {
    const raptor = await readyRaptor(brain);

    expect(raptor.nodes_per_level[0]).toBe(18);
    expect(raptor.nodes_per_level.length).toBeGreaterThanOrEqual(2);
    const summaries = raptor.nodes_per_level.slice(1).reduce((sum, n) => sum + n, 0);
    const rows = await brainRaptorNodeModel(brain.platform.stores.mongo).find({ index: 'docs' }).lean();
    expect(rows).toHaveLength(summaries);
    expect(rows.every((row) => row.level >= 1 && row.summary.length > 0)).toBe(true);
    const { count } = await brain.platform.stores.qdrant.count(
      `${brain.config.BRAIN_QDRANT_COLLECTION}_raptor_v1`,
      { exact: true },
    );
    expect(count).toBe(summaries);
  });

  it('answers a broad question with a summary node, shown by its summary and mapped to its best chunk', async () => {
    await readyRaptor(brain);

    const res = await search({
      query: 'ledger balance transfer escrow refund grant fee',
      strategy: 'raptor',
      rerank: false,
    }).expect(200);

    const summary = res.body.hits.find((hit: { level: number }) => hit.level >= 1);
    expect(summary).toMatchObject({ source: 'docs/ledger.md', strategy: 'raptor' });
    expect(summary.snippet).toContain('<mark>');
  });

  it('re-summarises only the branches of a re-ingested document', async () => {
    const before = await readyRaptor(brain);

    await brain.ingest([topicDocument('quest', 'journal')]).expect(200);
    const after = await readyRaptor(brain);

    const written = after.summaries_written - before.summaries_written;
    expect(written).toBeGreaterThanOrEqual(1);
    expect(written).toBeLessThanOrEqual(after.nodes_per_level.length - 1);
    expect(after.nodes_per_level[0]).toBe(18);
  });
});
