import request from 'supertest';
import { Wallet } from 'ethers';
import { buildSiweMessage } from '../../helpers/siwe';
import { consolidationRunModel } from '../../../models/ConsolidationRun';
import { ADMIN_SERVICE_TOKEN, grant, signIn, startAdminPlatform, type SignedIn } from './adminPlatform';

describe('admin brain: status, patterns, operations query, insights, user activity', () => {
  let ctx: Awaited<ReturnType<typeof startAdminPlatform>>;
  let ann: SignedIn;
  const target = Wallet.createRandom();

  beforeAll(async () => {
    ctx = await startAdminPlatform();
    ann = await signIn(ctx.server.url);
    for (let i = 0; i < 6; i += 1) {
      const { body } = await request(ctx.server.url).post('/auth/wallet/nonce').expect(201);
      const message = buildSiweMessage(target, body.nonce);
      await request(ctx.server.url)
        .post('/auth/wallet/verify')
        .send({
          address: target.address,
          signature: await Wallet.createRandom().signMessage(message),
          nonce: body.nonce,
          message,
        })
        .expect(401);
    }
    for (let i = 0; i < 12; i += 1) await grant(ctx.server.url, ann.userId, 5 + i, `routes-grant-${i}`);
  });
  afterAll(() => ctx.server.stop());

  it('GET /admin/brain/status: each brain-backed area with its indexes, the providers and the monitor link', async () => {
    const res = await ctx.as(ctx.admin, 'get', '/admin/brain/status').expect(200);
    expect(res.body.status).toBe('up');
    expect(res.body.areas.map((area: { name: string }) => area.name)).toEqual(
      expect.arrayContaining(['knowledge', 'audit', 'decisions']),
    );
    const audit = res.body.areas.find((area: { name: string }) => area.name === 'audit');
    expect(audit.indexes.events).toBeGreaterThanOrEqual(20);
    expect(audit.indexes.signatures).toBeGreaterThanOrEqual(3);
    expect(res.body.providers).toEqual([{ provider: 'local', model: 'local-sem-v1-384', state: 'CLOSED' }]);
    expect(res.body.monitor_url).toMatch(/\/colyseus$/);
    const player = await ctx.as(ann, 'get', '/admin/brain/status');
    expect([player.status, player.body.code]).toEqual([403, 'ROLE_REQUIRED']);
  });

  it('GET /admin/brain/status: memory and social report their counts, their newest data and a failed consolidation', async () => {
    const at = new Date();
    await request(ctx.server.url)
      .post('/social/brain/interaction')
      .set('Authorization', `Bearer ${ADMIN_SERVICE_TOKEN}`)
      .send({
        platform: 'minecraft',
        user_id: 'status-helper',
        target_platform: 'minecraft',
        target_user_id: 'status-helped',
        kind: 'help',
        content: 'carried the wheat home',
        occurred_at: at.toISOString(),
        idempotency_key: 'status-help-1',
      })
      .expect(201);
    type Area = { name: string; state: string; indexes: Record<string, number>; last_sync: string | null };
    const status = async () => (await ctx.as(ctx.admin, 'get', '/admin/brain/status').expect(200)).body;
    const area = (body: { areas: Area[] }, name: string) => body.areas.find((a) => a.name === name)!;
    const before = await status();
    expect(area(before, 'social')).toMatchObject({ state: 'up', detail: null });
    expect(area(before, 'social').indexes).toMatchObject({
      identities: 2,
      persons: 2,
      edges: 1,
      interactions: 1,
    });
    // Both people remember the help: two memories, each with its vector.
    expect(area(before, 'memory')).toMatchObject({ state: 'up', detail: null });
    expect(area(before, 'memory').indexes).toEqual({ memories: 2, vectors: 2 });
    for (const name of ['social', 'memory'])
      expect(Date.parse(area(before, name).last_sync!)).toBeGreaterThanOrEqual(at.getTime() - 1000);

    // A failed night shows: the memory area is degraded with the run's error, and so is the whole status.
    const runs = consolidationRunModel(ctx.server.platform.stores.mongo!);
    const later = new Date(at.getTime() + 60_000);
    await runs.create({
      _id: 'manual:status-test',
      trigger: 'manual',
      slot: null,
      status: 'failed',
      started_at: later,
      finished_at: later,
      heartbeat_at: later,
      duration_ms: 5,
      steps_done: [],
      counts: {},
      error: 'disk full',
      attempts: 1,
    });
    try {
      const failed = await status();
      expect(failed.status).toBe('degraded');
      expect(area(failed, 'memory')).toMatchObject({ state: 'degraded' });
      expect((area(failed, 'memory') as Area & { detail: string }).detail).toMatch(
        /consolidation failed .*disk full/,
      );
    } finally {
      await runs.deleteOne({ _id: 'manual:status-test' });
    }
  });

  it('POST /admin/brain/detect/patterns: the failed sign-in run and the grant burst, explained', async () => {
    const res = await ctx.as(ctx.admin, 'post', '/admin/brain/detect/patterns').send({}).expect(200);
    expect(res.body.events_scanned).toBeGreaterThanOrEqual(20);
    const run = res.body.anomalies.find(
      (a: { type: string; target: string }) => a.type === 'failed_sign_in_run' && a.target,
    );
    expect(run).toMatchObject({ target: `address:${target.address.toLowerCase()}`, count: 6 });
    expect(run.explanation).toBe(`6 failed sign-ins in a row for address:${target.address.toLowerCase()}`);
    const burst = res.body.anomalies.find((a: { type: string }) => a.type === 'rate_burst');
    expect(burst).toMatchObject({ actor: 'service', kind: 'economy.grant', count: 12 });
    const onlyGrants = await ctx
      .as(ctx.admin, 'post', '/admin/brain/detect/patterns')
      .send({ window: '1h', kinds: ['economy.grant'] })
      .expect(200);
    expect(onlyGrants.body.anomalies.every((a: { kind: string }) => a.kind === 'economy.grant')).toBe(true);
    const bad = await ctx.as(ctx.admin, 'post', '/admin/brain/detect/patterns').send({ window: 'forever' });
    expect([bad.status, bad.body.code, bad.body.errors[0].path]).toEqual([
      400,
      'VALIDATION_FAILED',
      'body.window',
    ]);
  });

  it('POST /admin/brain/query/operations: answers from the catalogue, shows the query, refuses the rest', async () => {
    const failed = await ctx
      .as(ctx.admin, 'post', '/admin/brain/query/operations')
      .send({ question: 'how many sign-ins failed in the last hour?' })
      .expect(200);
    expect(failed.body).toMatchObject({
      interpreted: {
        metric: 'failed_sign_ins',
        aggregation: 'count',
        group_by: null,
        window: { label: 'the last hour' },
      },
      answer: { value: 6, rows: [] },
      text: '6 sign-ins refused (auth.sign_in_failed) in the last hour.',
    });
    expect(failed.body.interpreted.query).toMatch(
      /^count audit_events where kind in \[auth.sign_in_failed\]/,
    );
    const total = await ctx
      .as(ctx.admin, 'post', '/admin/brain/query/operations')
      .send({ question: 'total amount granted today' })
      .expect(200);
    expect(total.body.answer.value).toBe(12 * 5 + 66);
    const top = await ctx
      .as(ctx.admin, 'post', '/admin/brain/query/operations')
      .send({ question: 'who received the most grants today' })
      .expect(200);
    expect(top.body.answer.rows).toEqual([{ key: `user:${ann.userId}`, value: 126 }]);
    const refused = await ctx
      .as(ctx.admin, 'post', '/admin/brain/query/operations')
      .send({ question: 'drop the audit log' });
    expect([refused.status, refused.body.code]).toEqual([422, 'OPERATIONS_QUERY_REFUSED']);
    expect(refused.body.metrics).toContain('failed_sign_ins');
    const outside = await ctx
      .as(ctx.admin, 'post', '/admin/brain/query/operations')
      .send({ question: 'what is the meaning of life' });
    expect([outside.status, outside.body.code]).toEqual([422, 'OPERATIONS_QUERY_REFUSED']);
  });

  it('GET /admin/brain/insights/summary: a health score with its factors and insights drawn from the figures', async () => {
    const res = await ctx.as(ctx.admin, 'get', '/admin/brain/insights/summary').expect(200);
    expect(res.body.health.factors.map((f: { name: string }) => f.name)).toEqual([
      'alerts',
      'error_rate',
      'latency_p95',
      'breakers',
      'areas',
      'backlog',
    ]);
    const penalties = res.body.health.factors.reduce(
      (sum: number, f: { penalty: number }) => sum + f.penalty,
      0,
    );
    expect(res.body.health.score).toBe(Math.max(0, 100 - penalties));
    expect(res.body.insights.map((i: { text: string }) => i.text)).toEqual(
      expect.arrayContaining(['6 failed sign-ins in the last 24 hours (none the day before).']),
    );
  });

  it('GET /admin/brain/users/{id}/activity: sign-in and economy on one timeline; 404 and 400', async () => {
    const res = await ctx
      .as(ctx.admin, 'get', `/admin/brain/users/${ann.userId}/activity?limit=50`)
      .expect(200);
    expect(res.body.user).toMatchObject({ id: ann.userId, roles: ['player'] });
    expect(res.body.counts).toEqual({ 'sign-in': 1, economy: 12 });
    expect(res.body.timeline[0]).toMatchObject({
      area: 'economy',
      kind: 'economy.grant',
      summary: 'economy grant 16 soft by service: ok',
    });
    const missing = await ctx.as(ctx.admin, 'get', '/admin/brain/users/0123456789abcdef01234567/activity');
    expect([missing.status, missing.body.code]).toEqual([404, 'USER_NOT_FOUND']);
    const bad = await ctx.as(ctx.admin, 'get', '/admin/brain/users/nope/activity');
    expect([bad.status, bad.body.errors[0].path]).toEqual([400, 'params.id']);
  });
});
