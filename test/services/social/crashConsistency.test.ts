import { ManualClock } from '../../../platform/clock';
import { REMEMBER_AFTER_MS } from '../../../services/social/memories/interactionMemories';
import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  dieOnce,
  startSocialPlatform,
  type SocialPlatform,
} from './socialPlatform';

type Collection = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * A social interaction touches three records (the edge's trust, its history, the interaction) and the memory
 * service. A process killed between any two of them loses nothing acknowledged and applies nothing twice: the retry
 * with the same key, or the recovery pass when nobody retries, finishes the write, and the edge's trust always equals
 * 50 plus its history.
 */
describe('social writes killed between their steps', () => {
  const clock = new ManualClock(Date.now());
  let platform: SocialPlatform;
  let bot: ReturnType<typeof as>;

  beforeAll(async () => {
    platform = await startSocialPlatform({}, clock);
    bot = as(platform.url, SOCIAL_SERVICE_TOKEN);
  });
  afterAll(() => platform.stop());

  const store = () => platform.area.social.context.store;
  const collections = () => ({
    edges: store().edges.collection as unknown as Collection,
    changes: store().changes.collection as unknown as Collection,
    interactions: store().interactions.collection as unknown as Collection,
  });

  /** The target's trust in the actor and its history, as the history route answers them. */
  async function history(actor: string, target: string) {
    const res = await bot.get(
      `/social/brain/trust/discord/${actor}/history?viewer_platform=discord&viewer_user_id=${target}`,
    );
    expect(res.status).toBe(200);
    const changes = res.body.changes as { applied: number; cause: string }[];
    return { trust: res.body.trust as number, changes, sum: changes.reduce((s, c) => s + c.applied, 0) };
  }

  const rememberedBy = (content: string) =>
    new Set(platform.ports.memories.filter((m) => m.content.includes(content)).map((m) => m.subject));

  const steps: { name: string; crash: () => void }[] = [
    {
      name: 'after the edge, before its history',
      crash: () => dieOnce(collections().changes, 'insertMany', false),
    },
    {
      name: 'after the history, before the edge is cleared',
      crash: () => dieOnce(collections().edges, 'bulkWrite', false),
    },
    {
      name: 'after the interaction, before it is remembered',
      crash: () => dieOnce(collections().interactions, 'insertMany', true),
    },
  ];

  for (const [i, step] of steps.entries()) {
    it(`finishes an interaction killed ${step.name} when it is retried with its key`, async () => {
      const [actor, target] = [`crash-actor-${i}`, `crash-target-${i}`];
      const body = buildInteraction({ user_id: actor, target_user_id: target, content: `retried step ${i}` });
      if (step.name.startsWith('after the history')) {
        // The first bulkWrite is the edge itself; the one to fail is the next (the outbox's clear).
        const edges = collections().edges;
        const original = edges.bulkWrite;
        let calls = 0;
        edges.bulkWrite = async (...args: unknown[]) => {
          calls += 1;
          if (calls === 2) {
            edges.bulkWrite = original;
            throw new Error('simulated crash at the clear');
          }
          return original.apply(edges, args);
        };
      } else step.crash();
      expect((await bot.post('/social/brain/interaction', body)).status).toBe(500);

      const retried = await bot.post('/social/brain/interaction', body);
      expect(retried.status).toBe(201);
      // The effect it had, not "nothing applied": trust moved once, by the help's 4 points.
      expect(retried.body.effect).toMatchObject({ applied: 4, trust_after: 54 });
      const again = await bot.post('/social/brain/interaction', body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(retried.body);

      const { trust, changes, sum } = await history(actor, target);
      expect(changes).toHaveLength(1);
      expect(trust).toBe(50 + sum);
      expect(trust).toBe(54);
      expect(rememberedBy(`retried step ${i}`)).toEqual(
        new Set([`social:discord:${actor}`, `social:discord:${target}`]),
      );
    });
  }

  it('completes the history and the memories of writes nobody retries, in the recovery pass', async () => {
    const [actor, target] = ['unretried-actor', 'unretried-target'];
    dieOnce(collections().changes, 'insertMany', false);
    const first = buildInteraction({ user_id: actor, target_user_id: target, content: 'never retried one' });
    expect((await bot.post('/social/brain/interaction', first)).status).toBe(500);
    // A second interaction stored but killed before it was remembered.
    dieOnce(collections().interactions, 'insertMany', true);
    const second = buildInteraction({ user_id: target, target_user_id: actor, content: 'never retried two' });
    expect((await bot.post('/social/brain/interaction', second)).status).toBe(500);
    // A mark whose history was lost with the process.
    dieOnce(collections().changes, 'insertMany', false);
    const mark = {
      platform: 'discord',
      user_id: target,
      target_platform: 'discord',
      target_user_id: 'marked',
    };
    expect((await bot.post('/social/brain/fren', mark)).status).toBe(500);

    clock.advance(REMEMBER_AFTER_MS + 1000);
    const finished = await platform.area.recovery.run();
    expect(finished.edges).toBeGreaterThanOrEqual(2);
    expect(finished.remembered).toBe(1);

    const edge = await history(actor, target);
    expect(edge.changes).toHaveLength(1);
    expect(edge.trust).toBe(50 + edge.sum);
    const marked = await bot.get(
      '/social/brain/trust/discord/marked/history?viewer_platform=discord&viewer_user_id=' + target,
    );
    expect(marked.body.changes.map((c: { cause: string }) => c.cause)).toEqual(['mark:fren']);
    expect(marked.body.trust).toBe(50 + marked.body.changes[0].applied);
    expect(rememberedBy('never retried two')).toEqual(
      new Set([`social:discord:${target}`, `social:discord:${actor}`]),
    );
    // A second pass finds nothing left: nothing is applied twice.
    expect(await platform.area.recovery.run()).toEqual({ edges: 0, remembered: 0, merged: 0 });
  });
});
