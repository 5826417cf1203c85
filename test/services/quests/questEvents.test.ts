import { Wallet } from 'ethers';
import request from 'supertest';
import type { CharacterRecord } from '../../../models/Character';
import { ManualClock } from '../../../platform/clock';
import { combineParts } from '../../../productParts';
import { loadWorld } from '../../../rooms/content/loader';
import { InProcessWorldEventBus } from '../../../rooms/worldEvents';
import { createAuthService } from '../../../services/auth';
import type { WorldService } from '../../../services/mud';
import { createQuestsArea } from '../../../services/quests';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** A saved character as the world stores it. */
function buildCharacter(overrides: Partial<CharacterRecord> = {}): CharacterRecord {
  return {
    userId: '000000000000000000000001',
    name: 'Ann',
    roomRef: 'forest:edge',
    health: 30,
    maxHealth: 30,
    level: 2,
    xp: 10,
    currencies: { soft: 0, hard: 0 },
    inventory: {},
    equipment: {},
    skills: {},
    quests: {},
    relations: {},
    companion: null,
    updatedAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
}

describe('quests brain: world events, notifications and world figures', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 8));
  const bus = new InProcessWorldEventBus();
  const notified: Array<{ userId: string; kind: string; payload: Record<string, unknown> }> = [];
  const characters: CharacterRecord[] = [];
  const admin = Wallet.createRandom();
  let server: TestPlatform;
  let token: string;

  beforeAll(async () => {
    const world = await loadWorld();
    const service = {
      world,
      readCharacters: async ({ userId, after, limit }: { userId?: string; after?: string; limit: number }) =>
        characters.filter((c) => (userId ? c.userId === userId : !after || c.userId > after)).slice(0, limit),
    } as unknown as WorldService;
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', ADMIN_ADDRESSES: admin.address },
      async (context) => {
        const auth = createAuthService(context);
        const quests = await createQuestsArea(context, auth, {
          world: service,
          events: bus,
          notify: (userId, kind, payload) => notified.push({ userId, kind, payload }),
        });
        return { ...combineParts([{ services: [auth.register] }, quests]), adminGuard: auth.adminGuard };
      },
      clock,
    );
    token = (await signInWithWallet(server.url, admin)).body.token;
  });
  afterAll(() => server.stop());

  it('notifies the next recommendations after a completion, and counts deaths per room', async () => {
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
    characters.push(
      buildCharacter({
        userId: me.body.id,
        quests: { 'forest:wolf_cull': { status: 'active', counts: [1] } },
      }),
      buildCharacter({
        userId: 'ffffffffffffffffffffffff',
        quests: { 'forest:wolf_cull': { status: 'completed', counts: [2], completedAt: clock.now() } },
      }),
    );
    bus.publish({
      type: 'quest.completed',
      areaId: 'forest',
      userId: me.body.id,
      quest: 'forest:lost_trail',
      xp: 30,
      soft: 0,
    });
    for (let i = 0; i < 3; i += 1)
      bus.publish({
        type: 'player.died',
        areaId: 'forest',
        roomRef: 'forest:thicket',
        userId: me.body.id,
        killer: 'forest:wolf',
      });
    const deadline = Date.now() + 5000;
    while (notified.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(notified[0]).toMatchObject({ userId: me.body.id, kind: 'quests.recommendations' });
    expect((notified[0].payload.quests as unknown[]).length).toBeGreaterThan(0);

    // Counters are written behind the events: poll (with a deadline) until the three deaths are in.
    const read = () =>
      request(server.url).get('/quests/brain/insights').set('Authorization', `Bearer ${token}`).expect(200);
    let insights = await read();
    while (insights.body.world.deaths[0]?.deaths !== 3 && Date.now() < deadline) insights = await read();
    expect(insights.body.world.deaths).toEqual([{ room: 'forest:thicket', deaths: 3 }]);
    const wolves = insights.body.world.quests.find((q: { quest: string }) => q.quest === 'forest:wolf_cull');
    expect(wolves).toMatchObject({ active: 1, completed: 1, completion_rate: 0.5, abandoned: 1 });
  });
});
