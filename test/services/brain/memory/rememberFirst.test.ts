import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ManualClock } from '../../../../platform/clock';
import { loadConfig } from '../../../../platform/config';
import type { PlatformContext } from '../../../../platform/platform';
import { combineParts } from '../../../../productParts';
import { createAuthService } from '../../../../services/auth';
import { createBrainArea } from '../../../../services/brain';
import type { MemoryKeeper } from '../../../../services/brain/memory/memoryKeeper';
import { PENDING_FIELD, REPAIR_AFTER_MS } from '../../../../services/brain/memory/memoryVectorRepair';
import { eventually } from '../../../helpers/eventually';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const TOKEN = 'remember-first-test-token-0123456789';
const SUBJECT = 'bot:remember-first';
const SWORD = 'I keep my spare sword in the chapel crypt.';
const OTHERS = [
  'The weather has been awful all week.',
  'My sister Ilse lives in Rotterdam with her two kids.',
  'I bought a second-hand bicycle to get to work.',
];

/** A platform on the neural path (the default), its memory keeper reachable. */
async function start(
  clock: ManualClock,
  dataDir: string,
): Promise<{ server: TestPlatform; keeper: MemoryKeeper }> {
  let keeper: MemoryKeeper | undefined;
  const server = await startTestPlatform(
    {
      BRAIN_SERVICE_TOKEN: TOKEN,
      REDIS_URL: '',
      BRAIN_CACHE_KEY_PREFIX: `test:${randomUUID()}:`,
      BRAIN_MEMORY_EMBEDDER: 'neural',
      DATA_DIR: dataDir,
    },
    async (context: PlatformContext) => {
      const auth = createAuthService(context);
      const brain = await createBrainArea(context, auth);
      keeper = brain.memory as MemoryKeeper;
      return combineParts([{ services: [auth.register], close: () => auth.close() }, brain]);
    },
    clock,
  );
  return { server, keeper: keeper! };
}

const call = (server: TestPlatform, route: string, body: object) =>
  request(server.url)
    .post(route)
    .set('Authorization', `Bearer ${TOKEN}`)
    .send({ subject: SUBJECT, ...body });
const recalled = async (server: TestPlatform, query: string) =>
  (await call(server, '/brain/memory/recall', { query, limit: 5 }).expect(200)).body.hits.map(
    (hit: { content: string }) => hit.content,
  );
const flagged = async (keeper: MemoryKeeper, id: string) =>
  (await keeper.memories.collection.findOne({ _id: id as never }))?.[PENDING_FIELD] === true;
const memoryVectors = async (server: TestPlatform) =>
  (await request(server.url).get('/brain/stats').expect(200)).body.memory_vectors;

describe('remember stores first, the vector follows (neural path)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-remember-first-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  it('is the default, and chain stays selectable', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).BRAIN_MEMORY_EMBEDDER).toBe('neural');
    expect(loadConfig({ NODE_ENV: 'test', BRAIN_MEMORY_EMBEDDER: 'chain' }).BRAIN_MEMORY_EMBEDDER).toBe(
      'chain',
    );
  });

  it('answers before the vector exists, recalls by words at once and by meaning after the background pass', async () => {
    const clock = new ManualClock(Date.parse('2026-11-28T10:00:00.000Z'));
    const { server, keeper } = await start(clock, path.join(dataDir, 'first'));
    // The background pass is held until `release`; released on failure too, so the platform can stop.
    let release = () => {};
    try {
      for (const content of OTHERS) await call(server, '/brain/memory/remember', { content }).expect(201);
      await keeper.vectorRepair.settled();
      const gate = new Promise<void>((resolve) => (release = resolve));
      const real = keeper.embedInBackground.bind(keeper);
      const held = jest.spyOn(keeper, 'embedInBackground').mockImplementation(async (contents) => {
        await gate;
        return real(contents);
      });
      const vectorsBefore = await keeper.options.vectors.size();

      const res = await call(server, '/brain/memory/remember', { content: SWORD }).expect(201);
      expect(res.body).not.toHaveProperty(PENDING_FIELD);
      expect(await flagged(keeper, res.body.id)).toBe(true);
      expect(await keeper.options.vectors.size()).toBe(vectorsBefore);
      // Found by its words; a paraphrase sharing none finds nothing yet (no cosine is made up for it).
      expect(await recalled(server, 'where is my spare sword?')).toContain(SWORD);
      expect(await recalled(server, 'where did I hide my extra blade?')).not.toContain(SWORD);
      const waiting = await memoryVectors(server);
      expect(waiting).toMatchObject({ model: 'use-lite-v1-512', pending: 1 });
      expect(waiting.oldest_pending_at).toBe(res.body.created_at);
      expect(held).toHaveBeenCalled();

      release();
      await keeper.vectorRepair.settled();
      expect(await flagged(keeper, res.body.id)).toBe(false);
      expect(await keeper.options.vectors.size()).toBe(vectorsBefore + 1);
      expect(await recalled(server, 'where did I hide my extra blade?')).toContain(SWORD);
      await eventually(async () => (await memoryVectors(server)).pending, 0, 10_000, 200);
    } finally {
      release();
      await server.stop();
    }
    // The background threads run at the lowest priority: on a busy machine they wait for every other thread.
  }, 120_000);

  it('writes the vector a crash left out, at the next start', async () => {
    const clock = new ManualClock(Date.parse('2026-11-28T11:00:00.000Z'));
    const dir = path.join(dataDir, 'crash');
    const first = await start(clock, dir);
    let id: string;
    try {
      // The process dies before its background pass writes anything: the batch is lost, the flag stays.
      jest.spyOn(first.keeper, 'embedInBackground').mockRejectedValue(new Error('killed'));
      id = (await call(first.server, '/brain/memory/remember', { content: SWORD }).expect(201)).body.id;
      await first.keeper.vectorRepair.settled();
      expect(await flagged(first.keeper, id)).toBe(true);
    } finally {
      await first.server.stop();
    }
    jest.restoreAllMocks();

    clock.advance(REPAIR_AFTER_MS + 1);
    const second = await start(clock, dir);
    try {
      await eventually(() => flagged(second.keeper, id), false, 90_000, 100);
      expect(await second.keeper.options.vectors.size()).toBe(1);
      expect(await recalled(second.server, 'where did I hide my extra blade?')).toContain(SWORD);
    } finally {
      await second.server.stop();
    }
  }, 150_000);
});
