import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DependencyUnavailableError } from '../../../../platform/errors';
import { ManualClock } from '../../../../platform/clock';
import type { PlatformContext } from '../../../../platform/platform';
import { combineParts } from '../../../../productParts';
import { createAuthService } from '../../../../services/auth';
import { createBrainArea, type BrainArea } from '../../../../services/brain';
import { DECISION_PUBLISH_JOB } from '../../../../services/brain/decisions/decisionPublication';
import { eventually } from '../../../helpers/eventually';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';
import { metricValue } from '../brainPlatform';

const TOKEN = 'decision-publication-token-0123456789';

/** A decision body with defaults. */
function buildDecision(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Publish decisions into the corpus',
    category: 'architecture',
    rationale: 'Operators search them',
    ...overrides,
  };
}

type Publication = { state: string; attempts: number; published_version: number; last_error: string | null };

describe('decisions published into the brain corpus', () => {
  const clock = new ManualClock(Date.parse('2026-11-28T10:00:00.000Z'));
  let server: TestPlatform;
  let brain: BrainArea;
  /** While true, the corpus ingest decisions are published through fails as an unavailable brain does. */
  let brainDown = false;

  const post = (path: string, body: object) =>
    request(server.url).post(path).set('Authorization', `Bearer ${TOKEN}`).send(body);
  const get = (path: string) => request(server.url).get(path).set('Authorization', `Bearer ${TOKEN}`);
  const count = async () => (await get('/brain/decisions?limit=100').expect(200)).body.decisions.length;
  const publication = async (id: string): Promise<Publication> =>
    (await get(`/brain/decisions/${id}`).expect(200)).body.publication;
  /** The sources of the documents a full-text search finds (a document may answer with several chunks). */
  const found = async (query: string): Promise<string[]> => {
    const res = await request(server.url)
      .post('/brain/search')
      .send({ query, strategy: 'fulltext' })
      .expect(200);
    return [...new Set<string>(res.body.hits.map((hit: { source: string }) => hit.source))];
  };
  const metric = async (name: string, labels: Record<string, string> = {}) =>
    metricValue((await request(server.url).get('/metrics').expect(200)).text, name, labels);

  beforeAll(async () => {
    server = await startTestPlatform(
      { BRAIN_SERVICE_TOKEN: TOKEN, REDIS_URL: '', BRAIN_CACHE_KEY_PREFIX: `test:${randomUUID()}:` },
      async (context: PlatformContext) => {
        const auth = createAuthService(context);
        brain = await createBrainArea(context, auth, {
          decisionCorpus: (ingestor) => ({
            ingest: (...args: Parameters<typeof ingestor.ingest>) => {
              if (brainDown)
                throw new DependencyUnavailableError('The embedding provider', 'BRAIN_EMBEDDING_UNAVAILABLE');
              return ingestor.ingest(...args);
            },
          }),
        });
        return combineParts([{ services: [auth.register], close: () => auth.close() }, brain]);
      },
      clock,
    );
  });
  afterAll(() => server.stop());

  it.each([
    ['title', { title: 'Use\u0000NUL' }],
    ['rationale', { rationale: 'Because\u0000' }],
    ['context', { context: 'Seen in \u0000 a log' }],
    ['rationale', { rationale: 'ok\u0001\u0002\u0003\u0004 mostly controls' }],
  ])(
    'refuses binary content in %s with 400 DECISION_TEXT_BINARY, storing nothing',
    async (field, overrides) => {
      const before = await count();
      const res = await post('/brain/decisions', buildDecision(overrides)).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        status: 400,
        code: 'DECISION_TEXT_BINARY',
        detail: `Binary content in body.${field}`,
        errors: [
          {
            path: `body.${field}`,
            message: 'binary content (a NUL or control characters) that the brain cannot index',
          },
        ],
      });
      expect(await count()).toBe(before);
    },
  );

  it('records a decision the brain could not take as failed, counts it, shows it, and publishes it on retry', async () => {
    const failuresBefore = await metric('brain_decision_publishes_total', { outcome: 'failed' });
    brainDown = true;
    const created = await post(
      '/brain/decisions',
      buildDecision({ title: 'Quarantine orphaned vectors nightly' }),
    ).expect(201);
    const id = created.body.id as string;
    expect(created.body.publication).toMatchObject({
      state: 'failed',
      attempts: 1,
      published_version: 0,
      last_error: 'BRAIN_EMBEDDING_UNAVAILABLE',
      last_attempt_at: '2026-11-28T10:00:00.000Z',
      next_attempt_at: '2026-11-28T10:00:30.000Z',
    });
    expect(await found('quarantine orphaned vectors')).toEqual([]);
    expect(await metric('brain_decision_publishes_total', { outcome: 'failed' })).toBe(failuresBefore + 1);
    expect(await metric('brain_decisions_unpublished')).toBe(1);
    const failed = await get('/brain/decisions?publication=failed').expect(200);
    expect(failed.body.decisions.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(await brain.decisionStatus!.status()).toMatchObject({
      state: 'degraded',
      indexes: { unpublished: 1 },
      detail: `1 decision(s) not published into the corpus; oldest ${id} failed at 2026-11-28T10:00:00.000Z with BRAIN_EMBEDDING_UNAVAILABLE (retried every minute with backoff)`,
    });

    // Still down at the first retry: the attempt is counted and the backoff doubles.
    clock.advance(30_000);
    await server.platform.scheduler.agenda.now(DECISION_PUBLISH_JOB);
    await eventually(async () => (await publication(id)).attempts, 2);
    expect((await get(`/brain/decisions/${id}`)).body.publication.next_attempt_at).toBe(
      '2026-11-28T10:01:30.000Z',
    );

    // Back up: the next due run publishes it, and it is searchable.
    brainDown = false;
    clock.advance(60_000);
    await server.platform.scheduler.agenda.now(DECISION_PUBLISH_JOB);
    await eventually(async () => (await publication(id)).state, 'published');
    expect(await publication(id)).toMatchObject({ published_version: 1, attempts: 0, last_error: null });
    expect(await found('quarantine orphaned vectors')).toEqual([`decisions/${id}.md`]);
    expect(await metric('brain_decisions_unpublished')).toBe(0);
    expect(await brain.decisionStatus!.status()).toMatchObject({ state: 'up', detail: null });
  });

  it('marks a change pending until its own version is published', async () => {
    const created = await post(
      '/brain/decisions',
      buildDecision({ title: 'Keep seven days of episodes' }),
    ).expect(201);
    expect(created.body.publication).toMatchObject({ state: 'published', published_version: 1 });
    brainDown = true;
    const reverted = await post(`/brain/decisions/${created.body.id}/revert`, { reason: 'too short' }).expect(
      200,
    );
    expect(reverted.body.publication).toMatchObject({ state: 'failed', published_version: 1, attempts: 1 });
    brainDown = false;
    clock.advance(30_000);
    await server.platform.scheduler.agenda.now(DECISION_PUBLISH_JOB);
    await eventually(async () => (await publication(created.body.id)).published_version, 2);
  });
});
