import {
  SERVICE_TOKEN,
  startMemoryPlatform,
  type MemoryTestPlatform,
  type MemoryUser,
} from './memoryPlatform';

/** A remember body with defaults. */
function buildMemory(overrides: Record<string, unknown> = {}) {
  return { content: 'Ann lives in Riverside and keeps bees.', ...overrides };
}

describe('/brain/memory routes', () => {
  let server: MemoryTestPlatform;
  let ann: MemoryUser;
  let bob: MemoryUser;

  beforeAll(async () => {
    server = await startMemoryPlatform();
    ann = await server.signUp();
    bob = await server.signUp();
  });
  afterAll(() => server.stop());

  it('remembers into the episodic tier by default and answers the memory', async () => {
    const res = await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ tags: ['garden'], importance: 0.8 }))
      .expect(201);
    expect(res.body).toMatchObject({
      subject: ann.subject,
      tier: 'episodic',
      content: 'Ann lives in Riverside and keeps bees.',
      session_id: null,
      kind: null,
      tags: ['garden'],
      importance: 0.8,
      seen_count: 1,
      merged: false,
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const read = await server.as(ann.token).get(`/brain/memory/${res.body.id}`).expect(200);
    expect(read.body.content).toBe('Ann lives in Riverside and keeps bees.');
  });

  it('merges a near-duplicate instead of storing it twice', async () => {
    const first = await server
      .as(bob.token)
      .post(
        '/brain/memory/remember',
        buildMemory({ content: 'The blacksmith sells iron swords at the market on Fridays.' }),
      )
      .expect(201);
    const again = await server
      .as(bob.token)
      .post(
        '/brain/memory/remember',
        buildMemory({ content: 'The blacksmith sells iron swords at the market on Fridays!' }),
      )
      .expect(201);
    expect(again.body).toMatchObject({ id: first.body.id, merged: true, seen_count: 2 });
    const list = await server.as(bob.token).get('/brain/memory?tier=episodic').expect(200);
    expect(
      list.body.memories.filter((m: { content: string }) => m.content.includes('blacksmith')),
    ).toHaveLength(1);
  });

  it('recalls the relevant memory first and abstains on an unrelated query', async () => {
    await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ content: 'The dragon Smaug guards the northern pass.' }))
      .expect(201);
    const hit = await server
      .as(ann.token)
      .post('/brain/memory/recall', { query: 'who guards the northern pass?' })
      .expect(200);
    expect(hit.body.hits[0].content).toBe('The dragon Smaug guards the northern pass.');
    expect(hit.body.hits[0].score).toBeGreaterThan(0);
    const none = await server
      .as(ann.token)
      .post('/brain/memory/recall', { query: 'quantum chromodynamics lattice' })
      .expect(200);
    expect(none.body.hits).toEqual([]);
  });

  it('keeps working memory in order per session and needs a session for it', async () => {
    const missing = await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ tier: 'working' }))
      .expect(400);
    expect(missing.body).toMatchObject({
      code: 'MEMORY_SESSION_REQUIRED',
      detail: 'Working memory needs a session_id',
    });
    for (const content of ['hello there', 'where is the inn?', 'down the road']) {
      await server
        .as(ann.token)
        .post('/brain/memory/remember', { content, tier: 'working', session_id: 's1' })
        .expect(201);
    }
    const working = await server.as(ann.token).get('/brain/memory/working/s1').expect(200);
    expect(working.body.memories.map((m: { content: string }) => m.content)).toEqual([
      'hello there',
      'where is the inn?',
      'down the road',
    ]);
    const recall = await server
      .as(ann.token)
      .post('/brain/memory/recall', { query: 'inn', session_id: 's1' })
      .expect(200);
    expect(recall.body.working).toHaveLength(3);
  });

  it('forgets by id, session and confirmed query, from every store', async () => {
    const a = await server
      .as(bob.token)
      .post(
        '/brain/memory/remember',
        buildMemory({ content: 'Pip the companion likes blueberries.', session_id: 'talk' }),
      )
      .expect(201);
    const unconfirmed = await server
      .as(bob.token)
      .post('/brain/memory/forget', { query: 'blueberries', confirm: false })
      .expect(400);
    expect(unconfirmed.body.code).toBe('MEMORY_FORGET_UNCONFIRMED');
    const byQuery = await server
      .as(bob.token)
      .post('/brain/memory/forget', { query: 'blueberries', confirm: true })
      .expect(200);
    expect(byQuery.body.forgotten).toEqual([a.body.id]);
    await server.as(bob.token).get(`/brain/memory/${a.body.id}`).expect(404);
    const recall = await server
      .as(bob.token)
      .post('/brain/memory/recall', { query: 'blueberries companion' })
      .expect(200);
    expect(recall.body.hits.filter((h: { kind: string }) => h.kind !== 'fact')).toEqual([]);

    const b = await server
      .as(bob.token)
      .post(
        '/brain/memory/remember',
        buildMemory({ content: 'The ferry leaves at dawn.', session_id: 'trip' }),
      )
      .expect(201);
    const session = await server
      .as(bob.token)
      .post('/brain/memory/forget', { session_id: 'trip' })
      .expect(200);
    expect(session.body.forgotten).toEqual([b.body.id]);
    const c = await server
      .as(bob.token)
      .post('/brain/memory/remember', buildMemory({ content: 'Copper ore sells for three coins.' }))
      .expect(201);
    expect(
      (await server.as(bob.token).post('/brain/memory/forget', { id: c.body.id }).expect(200)).body.forgotten,
    ).toEqual([c.body.id]);
  });

  it('refuses a private key or a mnemonic with BRAIN_SECRET_DETECTED and stores nothing', async () => {
    const key = `my private key is 0x${'ab12'.repeat(16)}`;
    const res = await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ content: key }))
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'BRAIN_SECRET_DETECTED',
      detail: 'The content holds private_key material; it was not stored',
    });
    expect(JSON.stringify(res.body)).not.toContain('ab12ab12');
    const phrase = 'fog spot notable regret pizza coffee harvest ensure fog spot notable reflect';
    const mnemonic = await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ content: `seed: ${phrase}` }))
      .expect(400);
    expect(mnemonic.body.code).toBe('BRAIN_SECRET_DETECTED');
  });

  it('remembers a transaction hash: a 64-hex value with no key context is not a secret', async () => {
    const content = `my sword sale settled in tx 0x${'c0ffee42'.repeat(8)}`;
    const res = await server
      .as(ann.token)
      .post('/brain/memory/remember', buildMemory({ content }))
      .expect(201);
    expect(res.body.id).toEqual(expect.any(String));
  });

  it('makes the service token name the subject, and lets it act for NPCs', async () => {
    const missing = await server.as(SERVICE_TOKEN).post('/brain/memory/remember', buildMemory()).expect(400);
    expect(missing.body).toMatchObject({
      code: 'MEMORY_SUBJECT_REQUIRED',
      detail: 'The service token must name the subject',
    });
    const npc = await server
      .as(SERVICE_TOKEN)
      .post(
        '/brain/memory/remember',
        buildMemory({
          subject: 'npc:village:elder',
          content: 'The player Ann brought me honey.',
          tags: ['player:ann'],
        }),
      )
      .expect(201);
    expect(npc.body.subject).toBe('npc:village:elder');
    const recall = await server
      .as(SERVICE_TOKEN)
      .post('/brain/memory/recall', { subject: 'npc:village:elder', query: 'honey', tags: ['player:ann'] })
      .expect(200);
    expect(recall.body.hits.map((h: { id: string }) => h.id)).toEqual([npc.body.id]);
  });

  it('answers 401 without a credential', async () => {
    const res = await server.as('').post('/brain/memory/recall', { query: 'x' });
    expect(res.status).toBe(401);
  });
});
