import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import request from 'supertest';
import { ManualClock } from '../../../../platform/clock';
import type { PlatformContext } from '../../../../platform/platform';
import { combineParts } from '../../../../productParts';
import { createAuthService } from '../../../../services/auth';
import { createBrainArea } from '../../../../services/brain';
import { CONSOLIDATION_JOB } from '../../../../services/brain/consolidation/consolidation';
import { signInWithWallet } from '../../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const TOKEN = 'consolidation-test-token-0123456789';

/** A backup gate the test opens by hand. */
function buildGate() {
  let open!: () => void;
  const idle = new Promise<void>((resolve) => (open = resolve));
  return { waitForIdle: () => idle, open };
}

type Run = {
  id: string;
  status: string;
  trigger: string;
  steps_done: string[];
  counts: Record<string, number>;
};

describe('memory consolidation', () => {
  let server: TestPlatform;
  const clock = new ManualClock(Date.parse('2026-11-26T12:00:00.000Z'));
  const gate = buildGate();
  const as = () => ({
    get: (path: string) => request(server.url).get(path).set('Authorization', `Bearer ${TOKEN}`),
    post: (path: string, body: object = {}) =>
      request(server.url).post(path).set('Authorization', `Bearer ${TOKEN}`).send(body),
  });
  const runs = async (): Promise<Run[]> =>
    (await as().get('/brain/consolidation/runs').expect(200)).body.runs;
  const settled = async (id: string): Promise<Run> => {
    for (let i = 0; i < 400; i++) {
      const run = (await runs()).find((r) => r.id === id);
      if (run && run.status !== 'running') return run;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`run ${id} did not finish within 10 s`);
  };

  beforeAll(async () => {
    server = await startTestPlatform(
      {
        BRAIN_SERVICE_TOKEN: TOKEN,
        REDIS_URL: '',
        SIWE_ENABLED: '1',
        ADMIN_ADDRESSES: Wallet.createRandom().address,
        BRAIN_CACHE_KEY_PREFIX: `test:${randomUUID()}:`,
      },
      async (context: PlatformContext) => {
        const auth = createAuthService(context);
        const brain = await createBrainArea(context, auth, { backupGate: gate });
        return combineParts([{ services: [auth.register], close: () => auth.close() }, brain]);
      },
      clock,
    );
  });
  afterAll(() => server.stop());

  it('catches up the missed nightly slot at start, after the running backup', async () => {
    const [pending] = await runs();
    expect(pending).toMatchObject({
      id: 'scheduled:2026-11-26T03:30:00.000Z',
      trigger: 'catch_up',
      status: 'running',
      steps_done: [],
    });
    gate.open();
    const done = await settled(pending.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      steps_done: ['decisions', 'entities', 'contradictions', 'archive', 'purge'],
    });
  });

  it('extracts decisions, archives old sessions, and changes nothing when run twice', async () => {
    const old = new Date(clock.now() - 10 * 86_400_000).toISOString();
    const remember = (content: string, extra: object = {}) =>
      as()
        .post('/brain/memory/remember', { subject: 'bot:b1', content, ...extra })
        .expect(201);
    await remember('We decided to use Redis for sessions because it is shared by every process.');
    await remember('The inn keeper Mara talked about the harvest.', {
      session_id: 'old-1',
      occurred_at: old,
    });
    await remember('Mara said the harvest festival starts on Friday.', {
      session_id: 'old-1',
      occurred_at: old,
    });
    clock.advance(1000);

    const first = await settled((await as().post('/brain/consolidation/run').expect(202)).body.id);
    expect(first.counts).toMatchObject({
      decisions_extracted: 1,
      memories_consolidated: 3,
      memories_archived: 2,
      archival_summaries: 1,
    });
    const decisions = await as().get('/brain/decisions?q=Redis').expect(200);
    expect(decisions.body.decisions[0]).toMatchObject({
      title: 'use Redis for sessions',
      rationale: 'it is shared by every process',
      created_by: 'consolidation',
    });
    const archival = await as().get('/brain/memory?subject=bot:b1&tier=archival').expect(200);
    expect(archival.body.memories).toHaveLength(1);
    expect(archival.body.memories[0]).toMatchObject({
      kind: 'session.summary',
      session_id: 'old-1',
      seen_count: 2,
    });
    expect(archival.body.memories[0].content).toContain('harvest festival');
    const episodic = await as().get('/brain/memory?subject=bot:b1&tier=episodic').expect(200);
    expect(episodic.body.memories).toHaveLength(1);
    const mara = await as().get('/brain/graph/entities/Mara?subject=bot:b1').expect(200);
    expect(mara.body.mention_count).toBe(2);

    clock.advance(1000);
    const second = await settled((await as().post('/brain/consolidation/run').expect(202)).body.id);
    expect(second.counts).toMatchObject({
      decisions_extracted: 0,
      memories_consolidated: 0,
      memories_archived: 0,
      facts_closed: 0,
      entities_merged: 0,
    });
    expect((await as().get('/brain/decisions?q=Redis').expect(200)).body.decisions).toHaveLength(1);
  });

  it('resumes a crashed run of a slot from the step it stopped in', async () => {
    clock.set(Date.parse('2026-11-27T04:00:00.000Z'));
    const stale = new Date(clock.now() - 20 * 60_000);
    await server.platform.stores.mongo!.collection('consolidationruns').insertOne({
      _id: 'scheduled:2026-11-27T03:30:00.000Z' as never,
      trigger: 'scheduled',
      slot: new Date('2026-11-27T03:30:00.000Z'),
      status: 'running',
      started_at: stale,
      finished_at: null,
      heartbeat_at: stale,
      duration_ms: null,
      steps_done: ['decisions', 'entities'],
      counts: { decisions_extracted: 7 },
      error: null,
      attempts: 1,
    });
    await server.platform.scheduler.agenda.now(CONSOLIDATION_JOB);
    const resumed = await settled('scheduled:2026-11-27T03:30:00.000Z');
    expect(resumed).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      counts: { decisions_extracted: 7, facts_closed: 0 },
    });
    expect(resumed.steps_done).toEqual(['decisions', 'entities', 'contradictions', 'archive', 'purge']);
  });

  it('needs an operator or the service token', async () => {
    const { body } = await signInWithWallet(server.url, Wallet.createRandom());
    const res = await request(server.url)
      .post('/brain/consolidation/run')
      .set('Authorization', `Bearer ${body.token}`)
      .expect(403);
    expect(res.body.code).toBe('ROLE_REQUIRED');
  });
});
