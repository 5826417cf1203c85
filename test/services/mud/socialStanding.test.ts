import request from 'supertest';
import type { MudEvent } from '../../../rooms/text/narration';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform } from './worldPlatform';

const TOKEN = 'standing-service-token-0123456789';

/**
 * The world reads the social graph: a player many people trust is met warmly by NPCs they have not dealt with, a
 * player several people marked as foe warily (rooms/standings.ts), on the whole product.
 */
describe('NPCs and the social graph', () => {
  let server: TestPlatform;
  const bot = (path: string, body: object) =>
    request(server.url).post(path).set('Authorization', `Bearer ${TOKEN}`).send(body);

  beforeAll(async () => {
    server = await startWorldPlatform({ BRAIN_SERVICE_TOKEN: TOKEN });
  });
  afterAll(() => server.stop());

  const greeting = async (player: Player) => {
    const res = await act(server.url, player, { action: 'talk', npc: 'elder' }).expect(200);
    return res.body.events as MudEvent[];
  };
  const dispositionIn = (events: MudEvent[]) =>
    (events.find((e) => e.type === 'npc.said')?.data as { disposition?: string } | undefined)?.disposition;

  it('greets a trusted player warmly, a feared one warily, and a stranger as her template says', async () => {
    const [liked, feared, stranger] = [
      await signIn(server.url),
      await signIn(server.url),
      await signIn(server.url),
    ];
    const at = new Date().toISOString();
    for (const friend of ['chat-friend-1', 'chat-friend-2']) {
      const them = { platform: 'discord', user_id: friend };
      await bot('/social/brain/fren', {
        ...them,
        target_platform: 'web',
        target_user_id: liked.userId,
      }).expect(200);
      for (const kind of ['gift', 'help'])
        await bot('/social/brain/interaction', {
          platform: 'web',
          user_id: liked.userId,
          target_platform: 'discord',
          target_user_id: friend,
          kind,
          occurred_at: at,
          idempotency_key: `${friend}-${kind}`,
        }).expect(201);
    }
    for (const enemy of ['chat-enemy-1', 'chat-enemy-2', 'chat-enemy-3'])
      await bot('/social/brain/foe', {
        platform: 'discord',
        user_id: enemy,
        target_platform: 'web',
        target_user_id: feared.userId,
      }).expect(200);

    expect(dispositionIn(await greeting(stranger))).toBe('neutral');
    const warm = await greeting(liked);
    expect(dispositionIn(warm)).toBe('friendly');
    expect(warm.map((e) => e.text)).toContain('Elder Maren says: "I have heard good things about you."');
    const wary = await greeting(feared);
    expect(dispositionIn(wary)).toBe('wary');
    // A wary elder offers nothing: no quests, no topics.
    expect(wary.some((e) => e.type === 'npc.offers')).toBe(false);
    expect((await greeting(stranger)).some((e) => e.type === 'npc.offers')).toBe(true);
  });
});
