import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import type { AuditEvent } from '../../../../models/AuditEvent';
import type { PlatformContext } from '../../../../platform/platform';
import { combineParts } from '../../../../productParts';
import { createAuthService } from '../../../../services/auth';
import { createBrainArea, type BrainArea } from '../../../../services/brain';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const TOKEN = 'working-memory-test-token-0123456789';
/** About 300 cl100k tokens. */
const LONG_TURN = 'The caravan rolls north past the salt flats. '.repeat(30);

describe.each([
  ['Redis', 'redis://127.0.0.1:6379'],
  ['the process', ''],
])('working memory in %s, the audit port and the metrics', (_store, redisUrl) => {
  let server: TestPlatform;
  let brain: BrainArea;
  const prefix = `test:${randomUUID()}:`;
  const audited: AuditEvent[] = [];
  const as = () => ({
    get: (path: string) => request(server.url).get(path).set('Authorization', `Bearer ${TOKEN}`),
    post: (path: string, body: object) =>
      request(server.url).post(path).set('Authorization', `Bearer ${TOKEN}`).send(body),
  });

  beforeAll(async () => {
    server = await startTestPlatform(
      {
        BRAIN_SERVICE_TOKEN: TOKEN,
        REDIS_URL: redisUrl,
        BRAIN_WORKING_MEMORY_MAX_TOKENS: '1000',
        BRAIN_CACHE_KEY_PREFIX: prefix,
      },
      async (context: PlatformContext) => {
        const auth = createAuthService(context);
        brain = await createBrainArea(context, auth, { audit: { record: (event) => audited.push(event) } });
        return combineParts([
          { services: [auth.register], close: () => auth.close() },
          { services: brain.services, close: brain.close },
        ]);
      },
    );
  });
  afterAll(async () => {
    await server.stop();
    if (!redisUrl) return;
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('moves the oldest turns to the episodic tier when a session goes over its token budget', async () => {
    const subject = `bot:${randomUUID()}`;
    const ids: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const res = await as()
        .post('/brain/memory/remember', {
          subject,
          content: `Turn ${turn}. ${LONG_TURN}`,
          tier: 'working',
          session_id: 'long',
        })
        .expect(201);
      ids.push(res.body.id);
    }
    const working = await as().get(`/brain/memory/working/long?subject=${subject}`).expect(200);
    expect(working.body.memories.map((m: { id: string }) => m.id)).toEqual(ids.slice(1));
    const episodic = await as().get(`/brain/memory?subject=${subject}&tier=episodic`).expect(200);
    expect(
      episodic.body.memories.map((m: { id: string; session_id: string }) => [m.id, m.session_id]),
    ).toEqual([[ids[0], 'long']]);
    const forgotten = await as().post('/brain/memory/forget', { subject, session_id: 'long' }).expect(200);
    expect(forgotten.body.forgotten.sort()).toEqual([...ids].sort());
  });

  it('serves the memory service to other areas', async () => {
    const { memory } = await brain.memory!.remember({
      subject: 'npc:village:elder',
      content: 'The miller owes me a sack of flour.',
    });
    const { hits } = await brain.memory!.recall({ subject: 'npc:village:elder', query: 'who owes flour?' });
    expect(hits[0].memory.id).toBe(memory.id);
  });

  it('sends forget and erase to the platform audit port without content, and counts operations', async () => {
    const subject = `npc:${randomUUID()}`;
    const saved = await as()
      .post('/brain/memory/remember', { subject, content: 'A private thought about the mayor.' })
      .expect(201);
    await as().post('/brain/memory/forget', { subject, id: saved.body.id }).expect(200);
    await request(server.url)
      .delete(`/brain/security/subjects/${subject}`)
      .set('Authorization', `Bearer ${TOKEN}`)
      .expect(200);
    const mine = audited.filter((event) => event.target === subject);
    expect(mine.map((event) => [event.kind, event.actor, event.outcome])).toEqual([
      ['brain.memory.forget', 'service', 'ok'],
      ['brain.memory.erase', 'service', 'ok'],
    ]);
    expect(mine[0].details).toMatchObject({ count: 1, memory_ids: [saved.body.id] });
    expect(JSON.stringify(mine)).not.toContain('mayor');
    const metrics = (await request(server.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/brain_memory_operations_total\{operation="remember",tier="episodic"\} [1-9]/);
    expect(metrics).toMatch(/brain_memory_operations_total\{operation="overflow",tier="working"\} [1-9]/);
    expect(metrics).toContain('brain_consolidation_runs_total');
  });
});
