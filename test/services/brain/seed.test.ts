import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { productParts } from '../../../productParts';
import { seedEmptyBrain } from '../../../services/brain/seed';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** Resolves once the platform logged `message`, or fails after `timeoutMs`. */
async function logged(server: TestPlatform, message: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [line] = server.logs.withMessage(message);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`"${message}" not logged in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('brain seed on first start', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ BRAIN_SEED_ON_START: '1' }, productParts);
  }, 60_000);
  afterAll(() => server.stop());

  it('ingests the READMEs, the spec and the world lore as the docs index', async () => {
    const line = await logged(server, 'brain seeded with the platform docs');
    expect(line.ingested).toBeGreaterThan(10);
    const stats = await request(server.url).get('/brain/stats').expect(200);
    expect(stats.body.documents.docs).toBe(line.ingested);
    expect(stats.body.documents.code).toBe(0);
    const search = await request(server.url)
      .post('/brain/search')
      .send({ query: 'Thornwick village square', strategy: 'fulltext', indexes: ['docs'] })
      .expect(200);
    expect(search.body.hits.map((hit: { source: string }) => hit.source)).toContain('world/village/area.yml');
    const spec = await request(server.url)
      .post('/brain/search')
      .send({ query: 'guest sign-in tier 0', strategy: 'fulltext' })
      .expect(200);
    expect(spec.body.hits.map((hit: { source: string }) => hit.source)).toContain(
      'services/auth/guest/README.md',
    );
  }, 150_000);
});

describe('seedEmptyBrain', () => {
  it('leaves a knowledge base that holds any document alone', async () => {
    const ingest = jest.fn();
    const report = await seedEmptyBrain(
      {
        ingestor: { ingest },
        store: { counts: async () => ({ documents: { docs: 0, code: 1, tests: 0 } }) as never },
      },
      process.cwd(),
      pino({ level: 'silent' }),
    );
    expect(report).toBeUndefined();
    expect(ingest).not.toHaveBeenCalled();
  });

  it("seeds the repository's own Markdown, not the tests, the tool cache or other projects' evaluation corpora", async () => {
    const root = await mkdtemp(join(tmpdir(), 'brain-seed-'));
    try {
      for (const file of [
        'README.md',
        'docs/SPEC.md',
        'bench/README.md',
        'bench/corpora/someone-elses-docs/page.md',
        'test/fixtures/notes.md',
        '.cache/node-v24.21.0/CHANGELOG.md',
        'world/area.yml',
      ]) {
        await mkdir(join(root, dirname(file)), { recursive: true });
        await writeFile(join(root, file), `# ${file}\n`);
      }
      const ingest = jest.fn(async () => undefined);
      const report = await seedEmptyBrain(
        {
          ingestor: { ingest } as never,
          store: { counts: async () => ({ documents: { docs: 0, code: 0, tests: 0 } }) as never },
        },
        root,
        pino({ level: 'silent' }),
      );
      expect(ingest.mock.calls.map((call) => (call as unknown[])[1])).toEqual([
        'README.md',
        'bench/README.md',
        'docs/SPEC.md',
        'world/area.yml',
      ]);
      expect(report).toEqual({ ingested: 4, skipped: [] });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
