import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ManualClock } from '../../../../platform/clock';
import type { PlatformContext } from '../../../../platform/platform';
import { combineParts } from '../../../../productParts';
import { createAuthService } from '../../../../services/auth';
import { createBrainArea } from '../../../../services/brain';
import type { MemoryKeeper } from '../../../../services/brain/memory/memoryKeeper';
import {
  MEMORY_VECTOR_REPAIR_JOB,
  PENDING_FIELD,
  REPAIR_AFTER_MS,
} from '../../../../services/brain/memory/memoryVectorRepair';
import { eventually } from '../../../helpers/eventually';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const TOKEN = 'memory-crash-test-token-0123456789';

/**
 * A remember writes MongoDB, then Qdrant. Killed in between (the vector upsert fails as a kill would stop it), the
 * memory is left flagged without its vector: a retry of the same content finishes it before answering `merged: true`,
 * and the repair pass finishes the ones nobody retries.
 */
describe('memories a crash left without their vector', () => {
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:00.000Z'));
  let server: TestPlatform;
  let keeper: MemoryKeeper;

  const remember = (content: string) =>
    request(server.url)
      .post('/brain/memory/remember')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ subject: 'bot:crash-test', content });
  const vectors = () => keeper.options.vectors.size();
  const flagged = async (id: string) =>
    (await keeper.memories.collection.findOne({ _id: id as never }))?.[PENDING_FIELD] === true;
  /** The next remember stops after its MongoDB insert, as a process killed before the Qdrant upsert would. */
  const killBeforeVector = () =>
    jest.spyOn(keeper.options.vectors, 'upsert').mockRejectedValueOnce(new Error('killed'));

  beforeAll(async () => {
    server = await startTestPlatform(
      { BRAIN_SERVICE_TOKEN: TOKEN, REDIS_URL: '', BRAIN_CACHE_KEY_PREFIX: `test:${randomUUID()}:` },
      async (context: PlatformContext) => {
        const auth = createAuthService(context);
        const brain = await createBrainArea(context, auth);
        keeper = brain.memory as MemoryKeeper;
        return combineParts([{ services: [auth.register], close: () => auth.close() }, brain]);
      },
      clock,
    );
  });
  afterAll(() => server.stop());
  afterEach(() => jest.restoreAllMocks());

  it('clears the flag of a remember that stored both', async () => {
    const before = await vectors();
    const res = await remember('The miller grinds barley on Tuesdays').expect(201);
    expect(res.body.merged).toBe(false);
    expect(res.body).not.toHaveProperty(PENDING_FIELD);
    expect(await flagged(res.body.id)).toBe(false);
    expect(await vectors()).toBe(before + 1);
  });

  it('stores a memory with a NUL character whole: record, vector and words', async () => {
    const before = await vectors();
    const res = await remember('The cellar key\u0000hangs behind the bar').expect(201);
    expect(await flagged(res.body.id)).toBe(false);
    expect(await vectors()).toBe(before + 1);
    const recalled = await request(server.url)
      .post('/brain/memory/recall')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ subject: 'bot:crash-test', query: 'where is the cellar key' })
      .expect(200);
    expect(recalled.body.hits.map((m: { id: string }) => m.id)).toContain(res.body.id);
  });

  it('finishes the vector when the same content is remembered again, before answering merged', async () => {
    const content = 'The ferryman only crosses the river at dawn';
    killBeforeVector();
    const crashed = await remember(content).expect(500);
    expect(crashed.body.code).toBe('INTERNAL_ERROR');
    const [stored] = await keeper.memories.find({ content }).lean();
    expect(await flagged(stored._id)).toBe(true);
    const before = await vectors();

    const retry = await remember(content).expect(201);
    expect([retry.body.merged, retry.body.id]).toEqual([true, stored._id]);
    expect(await flagged(stored._id)).toBe(false);
    expect(await vectors()).toBe(before + 1);
  });

  it('repairs, at start and every minute, the memories nobody remembered again', async () => {
    killBeforeVector();
    const crashed = await remember('The smith keeps a spare key under the anvil').expect(500);
    expect(crashed.body.code).toBe('INTERNAL_ERROR');
    const [stored] = await keeper.memories.find({ content: /spare key under the anvil/ }).lean();
    const before = await vectors();
    // A remember still in flight is not the repair's business.
    expect(await keeper.vectorRepair.repair()).toBe(0);
    expect(await flagged(stored._id)).toBe(true);

    clock.advance(REPAIR_AFTER_MS + 1);
    await server.platform.scheduler.agenda.now(MEMORY_VECTOR_REPAIR_JOB);
    await eventually(() => flagged(stored._id), false, 10_000);
    expect(await vectors()).toBe(before + 1);
    expect(await keeper.memories.countDocuments()).toBe(await vectors());
  });
});
