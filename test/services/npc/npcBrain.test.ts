import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import {
  type Player,
  adminWallet,
  eventually,
  memoryForTests,
  play,
  signIn,
  startBrainPlatform,
} from './brainPlatform';

type MemoryPage = { memories: Array<{ content: string; player_id: string; kind: string }> };

describe('NPC brain: memories, talk, /npc/brain routes', () => {
  const admin = adminWallet();
  let server: TestPlatform;
  let ann: Player;
  let bob: Player;

  beforeAll(async () => {
    server = await startBrainPlatform(memoryForTests(), { ADMIN_ADDRESSES: admin.address });
    [ann, bob] = await Promise.all([signIn(server.url), signIn(server.url)]);
  });
  afterAll(() => server.stop());

  const get = (player: Player, path: string) =>
    request(server.url).get(path).set('Authorization', `Bearer ${player.token}`);

  it('gives two players different answers from their own histories, and neither learns the other’s', async () => {
    await play(server.url, ann, 'take stick', 'give stick to elder');
    await play(server.url, bob, 'ask elder about chickens');
    await eventually<MemoryPage>(server.url, '/npc/brain/village:elder/memories', ann.token, (b) =>
      b.memories.some((m) => m.kind === 'gift'),
    );
    await eventually<MemoryPage>(server.url, '/npc/brain/elder/memories', bob.token, (b) =>
      b.memories.some((m) => m.kind === 'dialogue'),
    );

    const annHears = await play(server.url, ann, 'talk elder');
    expect(annHears).toContainEqual(
      'Elder Maren adds: "You gave me the sturdy stick just now — I remember it."',
    );
    const bobHears = await play(server.url, bob, 'talk elder');
    expect(bobHears).toContainEqual(
      'Elder Maren adds: "You asked me: "Why should I mind your chickens? They\'re only chickens." just now — I remember that too."',
    );
    expect(bobHears.join('\n')).not.toMatch(/stick/);

    const bobsView = (await get(bob, '/npc/brain/village:elder/memories').expect(200)).body as MemoryPage;
    expect(bobsView.memories.every((m) => m.player_id === bob.userId)).toBe(true);
    expect(JSON.stringify(bobsView)).not.toMatch(/stick/);
    const refused = await get(bob, `/npc/brain/village:elder/memories?player=${ann.userId}`).expect(403);
    expect(refused.body).toMatchObject({
      code: 'NOT_YOUR_HISTORY',
      detail: 'You can only read your own history with an NPC',
    });

    const bobAsks = await request(server.url)
      .post('/npc/brain/village:elder/ask')
      .set('Authorization', `Bearer ${bob.token}`)
      .send({ question: 'Who gave you the stick?' })
      .expect(200);
    expect(bobAsks.body.citations.filter((c: { source: string }) => c.source === 'memory')).toEqual([]);
    expect(bobAsks.body.answer).not.toMatch(/You gave me/);
  });

  it('answers questions in character from lore and the asker’s own memories, with citations', async () => {
    const { body } = await request(server.url)
      .post('/npc/brain/village:elder/ask')
      .set('Authorization', `Bearer ${ann.token}`)
      .send({ question: 'Who is the man on the statue, the founder?' })
      .expect(200);
    expect(body).toMatchObject({
      npc: { ref: 'village:elder', name: 'Elder Maren' },
      disposition: 'neutral',
    });
    expect(body.answer).toMatch(/^Hm\. Aldric Thorn\./);
    expect(body.citations[0]).toEqual({
      source: 'lore',
      ref: 'topic:village:elder#founder',
      excerpt: expect.stringContaining('Aldric Thorn'),
    });

    const stick = await request(server.url)
      .post('/npc/brain/elder/ask')
      .set('Authorization', `Bearer ${ann.token}`)
      .send({ question: 'Do you remember the stick I gave you?' })
      .expect(200);
    expect(stick.body.answer).toMatch(/And I remember this: you gave me the sturdy stick\./);
    expect(stick.body.citations).toContainEqual(
      expect.objectContaining({
        source: 'memory',
        excerpt: 'You gave me the sturdy stick. (+1, now neutral)',
      }),
    );

    await request(server.url)
      .post('/npc/brain/elder/ask')
      .set('Authorization', `Bearer ${ann.token}`)
      .send({})
      .expect(400);
    const unknown = await request(server.url)
      .post('/npc/brain/nobody/ask')
      .set('Authorization', `Bearer ${ann.token}`)
      .send({ question: 'hello?' })
      .expect(404);
    expect(unknown.body).toMatchObject({ code: 'NPC_NOT_FOUND', detail: 'There is no NPC "nobody"' });
  });

  it('shows the caller’s standing and why; operators read every player’s history', async () => {
    const { body } = await get(ann, '/npc/brain/village:elder/relationship').expect(200);
    expect(body).toMatchObject({ npc: { ref: 'village:elder' }, score: 1, disposition: 'neutral' });
    expect(body.reasons.map((r: { content: string }) => r.content)).toEqual([
      'You gave me the sturdy stick. (+1, now neutral)',
    ]);

    const operator = await signIn(server.url, admin);
    const all = (await get(operator, '/npc/brain/village:elder/memories?limit=100').expect(200))
      .body as MemoryPage;
    expect(new Set(all.memories.map((m) => m.player_id))).toEqual(new Set([ann.userId, bob.userId]));
    const annOnly = (
      await get(operator, `/npc/brain/village:elder/memories?player=${ann.userId}`).expect(200)
    ).body as MemoryPage;
    expect(annOnly.memories.every((m) => m.player_id === ann.userId)).toBe(true);
    await request(server.url).get('/npc/brain/village:elder/memories').expect(401);
  });
});
