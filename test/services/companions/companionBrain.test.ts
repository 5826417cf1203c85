import request from 'supertest';
import { newCharacter } from '../../../rooms/persistence';
import { MongoPlayerStore } from '../../../services/mud/characterStore';
import type { TestPlatform } from '../../helpers/platform';
import {
  type Player,
  eventually,
  memoryForTests,
  play,
  signIn,
  startBrainPlatform,
} from '../npc/brainPlatform';
import { shippedWorld } from '../../helpers/gameServer';

type CompanionView = {
  bond: number;
  presence: string;
  recent_memories: Array<{ id: string; content: string; kind: string }>;
};

/**
 * A character standing in the Crystal Grotto, a little hurt, with Pip (bond 1, one point short of bond 2), saved
 * before it first plays.
 */
async function buildCharacterWithPip(server: TestPlatform, player: Player, presence = 'Progressive') {
  const record = newCharacter(await shippedWorld(), { userId: player.userId, name: 'Ann' }, Date.now());
  await new MongoPlayerStore(server.platform.stores.mongo).save({
    ...record,
    roomRef: 'caves:crystal_grotto',
    health: 24,
    companion: {
      ref: 'forest:pip',
      name: 'Pip',
      bond: 1,
      bondPoints: 4,
      presence: presence as 'Progressive',
    },
  });
}

describe('companion brain: shared memories, bond, presence, /companions/brain routes', () => {
  let server: TestPlatform;
  let ann: Player;

  beforeAll(async () => {
    server = await startBrainPlatform(memoryForTests(), { MUD_SAVE_INTERVAL_MS: '1000' });
    ann = await signIn(server.url);
    await buildCharacterWithPip(server, ann);
  });
  afterAll(() => server.stop());

  const as = (method: 'get' | 'put' | 'post', path: string) =>
    request(server.url)[method](path).set('Authorization', `Bearer ${ann.token}`);

  it('remembers what was found together and answers "ask pip ..." in the world and over HTTP', async () => {
    await play(server.url, ann, 'take crystal');
    await eventually<CompanionView>(server.url, '/companions/brain/pip', ann.token, (b) =>
      b.recent_memories.some((m) => m.kind === 'found'),
    );
    const heard = await play(server.url, ann, 'ask pip where did we find the crystal?');
    expect(heard).toContainEqual('Pip: "We found a glowing crystal in the Crystal Grotto, just now."');

    const { body } = await as('post', '/companions/brain/pip/ask')
      .send({ question: 'Where did we find the crystal?' })
      .expect(200);
    expect(body).toEqual({
      companion: { ref: 'forest:pip', name: 'Pip' },
      answer: 'We found a glowing crystal in the Crystal Grotto, just now.',
      citations: [
        { memory_id: expect.any(String), excerpt: 'We found a glowing crystal in the Crystal Grotto.' },
      ],
    });
  });

  it('lets the presence setting decide when it speaks', async () => {
    const silent = await as('put', '/companions/brain/pip/presence').send({ presence: 'Silent' }).expect(200);
    expect(silent.body).toMatchObject({ presence: 'Silent', is_purchasable: false });
    // Only what Pip says: creatures of the grotto may wander up meanwhile and be narrated too.
    const pipSays = async (line: string) =>
      (await play(server.url, ann, line)).filter((text) => text === '...' || text.startsWith('Pip'));
    expect(await pipSays('ask pip where did we find the crystal?')).toEqual(['...']);

    await as('put', '/companions/brain/forest:pip/presence').send({ presence: 'On Demand' }).expect(200);
    expect(await pipSays('ask pip where did we find the crystal?')).toEqual([
      'Pip: "We found a glowing crystal in the Crystal Grotto, just now."',
    ]);
    const bad = await as('put', '/companions/brain/pip/presence').send({ presence: 'Chatty' }).expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('raises the bond with a shared rest, remembers it and notifies the level-up', async () => {
    await as('put', '/companions/brain/pip/presence').send({ presence: 'Always' }).expect(200);
    await play(server.url, ann, 'rest');
    const view = await eventually<CompanionView>(
      server.url,
      '/companions/brain/Pip',
      ann.token,
      (b) => b.bond === 2,
    );
    expect(view.recent_memories.map((m) => m.content)).toContain('We rested together in the Crystal Grotto.');
    const notes = await eventually<{ notifications: Array<{ kind: string; payload: unknown }> }>(
      server.url,
      '/notifications',
      ann.token,
      (b) => b.notifications.some((n) => n.kind === 'companion.bond'),
    );
    expect(notes.notifications.find((n) => n.kind === 'companion.bond')?.payload).toEqual({
      companion: 'forest:pip',
      name: 'Pip',
      bond: 2,
      previous: 1,
    });
  });

  it('forgets a memory on request and refuses other companions and unknown memories', async () => {
    const before = (await as('get', '/companions/brain/pip').expect(200)).body as CompanionView;
    const found = before.recent_memories.find((m) => m.kind === 'found')!;
    await as('post', '/companions/brain/pip/forget')
      .send({ memory_id: found.id })
      .expect(200, { forgotten: [found.id] });
    const after = (await as('get', '/companions/brain/pip').expect(200)).body as CompanionView;
    expect(after.recent_memories.map((m) => m.id)).not.toContain(found.id);
    const again = await as('post', '/companions/brain/pip/forget').send({ memory_id: found.id }).expect(404);
    expect(again.body).toMatchObject({ code: 'MEMORY_NOT_FOUND' });
    const other = await as('get', '/companions/brain/ember').expect(404);
    expect(other.body).toMatchObject({
      code: 'COMPANION_NOT_FOUND',
      detail: 'You have no companion "ember"',
    });
    const stranger = await signIn(server.url);
    await request(server.url)
      .get('/companions/brain/pip')
      .set('Authorization', `Bearer ${stranger.token}`)
      .expect(404);
  });
});
