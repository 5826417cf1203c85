import { startMemoryPlatform, type MemoryTestPlatform, type MemoryUser } from './memoryPlatform';

describe('memory subject isolation', () => {
  let server: MemoryTestPlatform;
  let ann: MemoryUser;
  let bob: MemoryUser;
  let annMemory: string;

  beforeAll(async () => {
    server = await startMemoryPlatform();
    ann = await server.signUp();
    bob = await server.signUp();
    const res = await server
      .as(ann.token)
      .post('/brain/memory/remember', {
        content: 'Ann hid the silver key under the oak.',
        session_id: 'secret',
      })
      .expect(201);
    annMemory = res.body.id;
    await server
      .as(ann.token)
      .post('/brain/memory/remember', {
        content: 'Ann whispers about the key',
        tier: 'working',
        session_id: 'secret',
      })
      .expect(201);
  });
  afterAll(() => server.stop());

  const forbidden = {
    code: 'MEMORY_SUBJECT_FORBIDDEN',
    detail: "A user may only use their own subject's memories",
  };

  it("refuses every route naming another user's subject with 403", async () => {
    const bobAs = server.as(bob.token);
    const calls = [
      bobAs.post('/brain/memory/remember', { content: 'x', subject: ann.subject }),
      bobAs.post('/brain/memory/recall', { query: 'silver key', subject: ann.subject }),
      bobAs.post('/brain/memory/forget', { id: annMemory, subject: ann.subject }),
      bobAs.get(`/brain/memory/${annMemory}?subject=${ann.subject}`),
      bobAs.get(`/brain/memory?subject=${ann.subject}`),
      bobAs.get(`/brain/memory/working/secret?subject=${ann.subject}`),
      bobAs.get(`/brain/graph/entities?subject=${ann.subject}`),
      bobAs.get(`/brain/graph/entities/Ann?subject=${ann.subject}`),
      bobAs.get(`/brain/security/export?subject=${ann.subject}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect([res.status, res.body.code, res.body.detail]).toEqual([403, forbidden.code, forbidden.detail]);
    }
  });

  it("never shows or changes another user's memories through the user's own subject", async () => {
    const bobAs = server.as(bob.token);
    expect(
      (
        await bobAs
          .post('/brain/memory/recall', { query: 'silver key oak', session_id: 'secret' })
          .expect(200)
      ).body,
    ).toEqual({ hits: [], working: [] });
    await bobAs.get(`/brain/memory/${annMemory}`).expect(404);
    expect((await bobAs.get('/brain/memory').expect(200)).body.memories).toEqual([]);
    expect((await bobAs.get('/brain/memory/working/secret').expect(200)).body.memories).toEqual([]);
    expect((await bobAs.post('/brain/memory/forget', { id: annMemory }).expect(200)).body.forgotten).toEqual(
      [],
    );
    expect(
      (await bobAs.post('/brain/memory/forget', { session_id: 'secret' }).expect(200)).body.forgotten,
    ).toEqual([]);
    expect(
      (await bobAs.post('/brain/memory/forget', { query: 'silver key', confirm: true }).expect(200)).body
        .forgotten,
    ).toEqual([]);
    expect((await bobAs.get('/brain/graph/entities').expect(200)).body.entities).toEqual([]);
    await bobAs.get('/brain/graph/entities/Ann').expect(404);
    const exported = await bobAs.get('/brain/security/export').expect(200);
    expect([exported.body.subject, exported.body.memories, exported.body.working]).toEqual([
      bob.subject,
      [],
      [],
    ]);

    const annAs = server.as(ann.token);
    expect((await annAs.get(`/brain/memory/${annMemory}`).expect(200)).body.content).toBe(
      'Ann hid the silver key under the oak.',
    );
    expect((await annAs.get('/brain/memory/working/secret').expect(200)).body.memories).toHaveLength(1);
  });

  it('keeps players away from the operator routes', async () => {
    const bobAs = server.as(bob.token);
    const calls = [
      bobAs.get('/brain/security/audit'),
      bobAs.post('/brain/security/scan', {}),
      bobAs.post('/brain/security/redact', { memory_ids: [annMemory] }),
      bobAs.delete(`/brain/security/subjects/${ann.subject}`),
      bobAs.get('/brain/consolidation/runs'),
      bobAs.post('/brain/consolidation/run', {}),
      bobAs.post('/brain/decisions', { title: 't', category: 'config', rationale: 'r' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect([res.status, res.body.code]).toEqual([403, 'ROLE_REQUIRED']);
    }
    expect((await server.as(ann.token).get(`/brain/memory/${annMemory}`)).status).toBe(200);
  });
});
