import {
  SERVICE_TOKEN,
  startMemoryPlatform,
  type MemoryTestPlatform,
  type MemoryUser,
} from './memoryPlatform';

/** A decision body with defaults. */
function buildDecision(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Use Redis for working memory',
    category: 'architecture',
    rationale: 'Shared by every process',
    ...overrides,
  };
}

describe('/brain/decisions', () => {
  let server: MemoryTestPlatform;
  let operator: MemoryUser;
  let player: MemoryUser;

  beforeAll(async () => {
    server = await startMemoryPlatform();
    operator = await server.operator();
    player = await server.signUp();
  });
  afterAll(() => server.stop());

  const create = (body: object = buildDecision()) =>
    server.as(operator.token).post('/brain/decisions', body).expect(201);

  it('records a decision as version 1, active, readable by signed-in users and searchable in the brain', async () => {
    const res = await create(buildDecision({ title: 'Consolidate memories at half past three' }));
    expect(res.body).toMatchObject({
      version: 1,
      status: 'active',
      category: 'architecture',
      created_by: `user:${operator.userId}`,
    });
    expect(res.body.versions).toHaveLength(1);
    const read = await server.as(player.token).get(`/brain/decisions/${res.body.id}`).expect(200);
    expect(read.body.title).toBe('Consolidate memories at half past three');
    const found = await server
      .search({ query: 'consolidate memories half past three', strategy: 'fulltext' })
      .expect(200);
    expect(found.body.hits[0].source).toBe(`decisions/${res.body.id}.md`);
  });

  it('supersedes, reverts and re-activates, each change a new version', async () => {
    const older = await create();
    const newer = await create(
      buildDecision({ title: 'Use the process for working memory', supersedes: older.body.id }),
    );
    const superseded = await server.as(player.token).get(`/brain/decisions/${older.body.id}`).expect(200);
    expect(superseded.body).toMatchObject({ status: 'superseded', superseded_by: newer.body.id, version: 2 });
    expect(superseded.body.versions[1]).toMatchObject({
      change: 'superseded',
      status: 'superseded',
      actor: `user:${operator.userId}`,
    });

    const reverted = await server
      .as(SERVICE_TOKEN)
      .post(`/brain/decisions/${newer.body.id}/revert`, { reason: 'Redis is back' })
      .expect(200);
    expect(reverted.body).toMatchObject({ status: 'reverted' });
    expect(reverted.body.versions.at(-1)).toMatchObject({
      change: 'reverted',
      reason: 'Redis is back',
      actor: 'service',
    });
    const back = await server.as(player.token).get(`/brain/decisions/${older.body.id}`).expect(200);
    expect(back.body).toMatchObject({ status: 'active', superseded_by: null, version: 3 });
    expect(back.body.versions.map((v: { change: string }) => v.change)).toEqual([
      'created',
      'superseded',
      'reactivated',
    ]);
  });

  it('answers 409 DECISION_TRANSITION_INVALID naming the states', async () => {
    const a = await create();
    const b = await create();
    await server
      .as(operator.token)
      .post(`/brain/decisions/${a.body.id}/revert`, { reason: 'no' })
      .expect(200);
    const again = await server
      .as(operator.token)
      .post(`/brain/decisions/${a.body.id}/revert`, { reason: 'twice' })
      .expect(409);
    expect(again.body).toMatchObject({
      code: 'DECISION_TRANSITION_INVALID',
      detail: `Decision ${a.body.id} cannot go from reverted to reverted`,
      from: 'reverted',
      to: 'reverted',
    });
    const byReverted = await server
      .as(operator.token)
      .post(`/brain/decisions/${b.body.id}/supersede`, { by: a.body.id })
      .expect(409);
    expect(byReverted.body).toMatchObject({
      code: 'DECISION_TRANSITION_INVALID',
      detail: `Decision ${a.body.id} cannot go from reverted to superseding`,
    });
    const self = await server
      .as(operator.token)
      .post(`/brain/decisions/${b.body.id}/supersede`, { by: b.body.id })
      .expect(409);
    expect(self.body.detail).toBe(
      `Decision ${b.body.id} cannot go from active to superseded: a decision cannot supersede itself`,
    );
    const missing = await server
      .as(operator.token)
      .post('/brain/decisions/nope/revert', { reason: 'x' })
      .expect(404);
    expect(missing.body.code).toBe('DECISION_NOT_FOUND');
  });

  it('lists history with filters and the statuses as of a past time', async () => {
    const first = await create(buildDecision({ title: 'Archive after seven days', category: 'policy' }));
    const before = new Date(server.clock.now()).toISOString();
    server.clock.advance(60_000);
    await create(
      buildDecision({ title: 'Archive after ten days', category: 'policy', supersedes: first.body.id }),
    );
    const now = await server.as(player.token).get('/brain/decisions?category=policy&q=archive').expect(200);
    expect(now.body.decisions.map((d: { title: string; status: string }) => [d.title, d.status])).toEqual([
      ['Archive after ten days', 'active'],
      ['Archive after seven days', 'superseded'],
    ]);
    const then = await server
      .as(player.token)
      .get(`/brain/decisions?category=policy&as_of=${before}`)
      .expect(200);
    expect(then.body.decisions.map((d: { title: string; status: string }) => [d.title, d.status])).toEqual([
      ['Archive after seven days', 'active'],
    ]);
    const active = await server
      .as(player.token)
      .get('/brain/decisions?category=policy&status=active')
      .expect(200);
    expect(active.body.decisions).toHaveLength(1);
  });
});
