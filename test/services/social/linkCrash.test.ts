import type { SocialEdgeRecord } from '../../../models/SocialEdge';
import { ManualClock } from '../../../platform/clock';
import { MERGE_AFTER_MS } from '../../../services/social/links/identityLinker';
import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  dieOnce,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
} from './socialPlatform';

/**
 * Linking a game account folds its person's edges and interactions into the web person: several writes. A process
 * killed between any two loses nothing and combines nothing twice: the link is recorded with `merge_pending` in the
 * same write, the admin status shows it waiting, and a relink or the recovery pass finishes the merge.
 */
describe('a link killed while its history is merged', () => {
  const clock = new ManualClock(Date.now());
  let platform: SocialPlatform;
  let bot: ReturnType<typeof as>;

  beforeAll(async () => {
    platform = await startSocialPlatform({}, clock);
    bot = as(platform.url, SOCIAL_SERVICE_TOKEN);
  });
  afterAll(() => platform.stop());

  const store = () => platform.area.social.context.store;
  const edgesOf = (person: string) =>
    store()
      .edges.find({ $or: [{ from: person }, { to: person }] })
      .lean<SocialEdgeRecord[]>();
  const interactionsOf = (edges: SocialEdgeRecord[]) =>
    edges.reduce((sum, edge) => sum + edge.interactions, 0);

  /** A web user and a game account who both dealt with the same third account (so one edge is combined). */
  async function twoViewsOfOnePerson(step: number) {
    const user = await signUp(platform.url);
    const [game, other] = [`Steve${step}`, `Alex${step}`];
    const gift = (platform: string, user_id: string) =>
      buildInteraction({
        platform,
        user_id,
        target_platform: 'minecraft',
        target_user_id: other,
        kind: 'gift',
      });
    await bot.post('/social/brain/interaction', gift('minecraft', game)).expect(201);
    await bot.post('/social/brain/interaction', gift('web', user.userId)).expect(201);
    await bot.post('/social/brain/interaction', gift('minecraft', game)).expect(201);
    const web = `web:${user.userId}`;
    const before = interactionsOf([...(await edgesOf(`minecraft:${game}`)), ...(await edgesOf(web))]);
    const link = async () => {
      const code = await as(platform.url, user.token)
        .post('/social/brain/link/code', { platform: 'minecraft', user_id: game })
        .expect(201);
      return bot.post('/social/brain/link', { platform: 'minecraft', user_id: game, proof: code.body.code });
    };
    const moving = (await edgesOf(`minecraft:${game}`)).length;
    return { game: `minecraft:${game}`, web, before, moving, link };
  }

  const socialStatus = async () => (await platform.area.status.status()).indexes;

  /** The merge happened exactly once: nothing left under the game person, every interaction counted once. */
  async function expectMergedOnce(views: { game: string; web: string; before: number; moving: number }) {
    expect(await edgesOf(views.game)).toEqual([]);
    expect(interactionsOf(await edgesOf(views.web))).toBe(views.before);
    const merges = await store().changes.countDocuments({ cause: 'link:merge', edge: new RegExp(views.web) });
    // One history entry per old edge moved (the one the other account has of the game account, combined with the
    // one it has of the web user).
    expect(views.moving).toBeGreaterThan(0);
    expect(merges).toBe(views.moving);
    expect(await store().interactions.countDocuments({ actorPerson: views.game })).toBe(0);
    expect(await store().identities.countDocuments({ merge_pending: true })).toBe(0);
  }

  const steps: { name: string; crash: () => void }[] = [
    {
      name: 'after the link, before any edge moved',
      crash: () => dieOnce(store().edges, 'find', false),
    },
    {
      name: 'after an edge was combined, before the old one was deleted',
      crash: () => dieOnce(store().edges, 'deleteOne', false),
    },
    {
      name: 'after the edges moved, before the interactions moved',
      crash: () => dieOnce(store().interactions, 'updateMany', true),
    },
  ];

  for (const [i, step] of steps.entries()) {
    it(`finishes a link killed ${step.name}, in the recovery pass`, async () => {
      const views = await twoViewsOfOnePerson(i);
      step.crash();
      expect((await views.link()).status).toBe(500);
      expect((await socialStatus()).merges_waiting).toBe(1);

      // Not yet: a link this recent may still be merging in another request.
      expect((await platform.area.recovery.run()).merged).toBe(0);
      clock.advance(MERGE_AFTER_MS + 1000);
      expect((await platform.area.recovery.run()).merged).toBe(1);
      await expectMergedOnce(views);
      expect((await socialStatus()).merges_waiting).toBe(0);
      // Nothing left for a second pass.
      expect((await platform.area.recovery.run()).merged).toBe(0);
      await expectMergedOnce(views);
    });
  }

  it('finishes at once, in the pass a process runs when it starts, a link however recent', async () => {
    const views = await twoViewsOfOnePerson(8);
    dieOnce(store().edges, 'deleteOne', false);
    expect((await views.link()).status).toBe(500);
    expect((await platform.area.recovery.run({ all: true })).merged).toBe(1);
    await expectMergedOnce(views);
  });

  it('finishes a half-merged link when the user links again', async () => {
    const views = await twoViewsOfOnePerson(9);
    dieOnce(store().edges, 'deleteOne', false);
    expect((await views.link()).status).toBe(500);
    const again = await views.link();
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ linked: true, person: { platform: 'web' } });
    expect(again.body.identity).not.toHaveProperty('merge_pending');
    await expectMergedOnce(views);
    // A third link changes nothing.
    expect((await views.link()).body.linked).toBe(false);
    await expectMergedOnce(views);
  });
});
