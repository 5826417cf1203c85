import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
  type SocialUser,
} from './socialPlatform';

describe('social brain: fren, foe and block marks; cross-platform links', () => {
  let platform: SocialPlatform;
  let url: string;
  let bot: ReturnType<typeof as>;
  let ann: SocialUser;
  let bob: SocialUser;

  beforeAll(async () => {
    platform = await startSocialPlatform();
    url = platform.url;
    bot = as(url, SOCIAL_SERVICE_TOKEN);
  });
  afterAll(() => platform.stop());
  beforeEach(async () => {
    ann = await signUp(url);
    bob = await signUp(url);
  });

  const mark = (user: SocialUser, target: SocialUser, reason?: string) => ({
    platform: 'web',
    user_id: user.userId,
    target_platform: 'web',
    target_user_id: target.userId,
    ...(reason ? { reason } : {}),
  });

  it('marks a fren (+20, notified), turns it into a foe (-30, clears fren) and clears it again', async () => {
    const fren = await as(url, ann.token).post('/social/brain/fren', mark(ann, bob, 'helped me build'));
    expect(fren.status).toBe(200);
    expect(fren.body).toEqual({
      observer: { platform: 'web', user_id: ann.userId },
      subject: { platform: 'web', user_id: bob.userId },
      trust: 70,
      trust_before: 50,
      relationship: 'fren',
      marks: ['fren'],
    });
    expect(platform.ports.notifications).toContainEqual({
      userId: bob.userId,
      kind: 'social.fren',
      payload: { by: `web:${ann.userId}`, reason: 'helped me build' },
    });
    const friends = await as(url, ann.token).get('/social/brain/friends').expect(200);
    expect(friends.body.friends.map((f: { identity: { user_id: string } }) => f.identity.user_id)).toEqual([
      bob.userId,
    ]);
    const foe = await as(url, ann.token).post('/social/brain/foe', mark(ann, bob)).expect(200);
    expect(foe.body).toMatchObject({ trust: 20, relationship: 'foe', marks: ['foe'] });
    const cleared = await as(url, ann.token).delete('/social/brain/foe', mark(ann, bob)).expect(200);
    expect(cleared.body).toMatchObject({ trust: 50, relationship: 'neutral', marks: [] });
    const history = await as(url, ann.token).get(`/social/brain/trust/web/${bob.userId}/history`).expect(200);
    expect(history.body.changes.map((c: { cause: string; after: number }) => [c.cause, c.after])).toEqual([
      ['unmark:foe', 50],
      ['mark:foe', 20],
      ['mark:fren', 70],
    ]);
  });

  it('answers a new user no friends and a trust history of 50 with nothing in it', async () => {
    expect((await as(url, ann.token).get('/social/brain/friends').expect(200)).body).toEqual({
      of: { platform: 'web', user_id: ann.userId },
      friends: [],
    });
    await bot
      .post('/social/brain/interaction', buildInteraction({ user_id: 'stranger-1', target_user_id: 'x-1' }))
      .expect(201);
    const history = await as(url, ann.token)
      .get('/social/brain/trust/discord/stranger-1/history')
      .expect(200);
    expect(history.body).toMatchObject({
      observer: { platform: 'web', user_id: ann.userId },
      trust: 50,
      changes: [],
    });
  });

  it('takes the same mark set twice at once', async () => {
    const twice = await Promise.all([
      as(url, ann.token).post('/social/brain/fren', mark(ann, bob)),
      as(url, ann.token).post('/social/brain/fren', mark(ann, bob)),
    ]);
    expect(twice.map((res) => [res.status, res.body.trust])).toEqual([
      [200, 70],
      [200, 70],
    ]);
  });

  it('refuses to mark for another user or oneself', async () => {
    const forOther = await as(url, ann.token).post('/social/brain/foe', mark(bob, ann));
    expect(forOther.status).toBe(403);
    expect(forOther.body.code).toBe('NOT_YOUR_IDENTITY');
    const self = await as(url, ann.token).post('/social/brain/fren', mark(ann, ann));
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({
      code: 'SOCIAL_SELF_TARGET',
      detail: 'A person cannot mark themselves',
    });
  });

  it('blocks: audited, hidden from friends, and the blocked person’s kindness no longer raises trust', async () => {
    await as(url, ann.token).post('/social/brain/fren', mark(ann, bob)).expect(200);
    const blocked = await as(url, ann.token)
      .post('/social/brain/block', mark(ann, bob, 'spam'))
      .expect(200);
    expect(blocked.body).toMatchObject({ relationship: 'blocked', marks: ['fren', 'block'] });
    expect(platform.ports.audit).toContainEqual(
      expect.objectContaining({
        actor: `user:${ann.userId}`,
        kind: 'social.block',
        target: `web:${bob.userId}`,
        outcome: 'ok',
      }),
    );
    expect((await as(url, ann.token).get('/social/brain/friends').expect(200)).body.friends).toEqual([]);
    // Only Ann (and the service token) see her block; to Bob it is her fren mark and trust.
    const seen = (res: { body: { outgoing: { relationship: string; marks: string[] }[] } }) =>
      res.body.outgoing.map((entry) => [entry.relationship, entry.marks]);
    const path = `/social/brain/relationships/web/${ann.userId}`;
    expect(seen(await as(url, ann.token).get(path).expect(200))).toEqual([['blocked', ['fren', 'block']]]);
    expect(seen(await bot.get(path).expect(200))).toEqual([['blocked', ['fren', 'block']]]);
    expect(seen(await as(url, bob.token).get(path).expect(200))).toEqual([['fren', ['fren']]]);
    const gift = await bot.post(
      '/social/brain/interaction',
      buildInteraction({
        platform: 'web',
        user_id: bob.userId,
        target_platform: 'web',
        target_user_id: ann.userId,
        kind: 'gift',
      }),
    );
    expect(gift.body.effect).toMatchObject({ applied: 0, trust_after: 70 });
  });

  it('links a game account with a code the user posts through the bot, folding its history into the user', async () => {
    await bot
      .post(
        '/social/brain/interaction',
        buildInteraction({
          platform: 'minecraft',
          user_id: 'Steve',
          target_platform: 'minecraft',
          target_user_id: 'Alex',
          kind: 'gift',
        }),
      )
      .expect(201);
    const code = await as(url, ann.token).post('/social/brain/link/code', {
      platform: 'minecraft',
      user_id: 'Steve',
    });
    expect(code.status).toBe(201);
    expect(code.body.code).toMatch(/^[A-Z2-9]{8}$/);
    const wrongAccount = await bot.post('/social/brain/link', {
      platform: 'minecraft',
      user_id: 'Alex',
      proof: code.body.code,
    });
    expect(wrongAccount.status).toBe(400);
    expect(wrongAccount.body.code).toBe('LINK_PROOF_INVALID');
    const linked = await bot.post('/social/brain/link', {
      platform: 'minecraft',
      user_id: 'Steve',
      proof: code.body.code,
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      identity: { platform: 'minecraft', user_id: 'Steve' },
      person: { platform: 'web', user_id: ann.userId },
      linked: true,
    });
    expect(platform.ports.notifications).toContainEqual({
      userId: ann.userId,
      kind: 'social.link_confirmed',
      payload: { platform: 'minecraft', user_id: 'Steve' },
    });
    expect(platform.ports.audit).toContainEqual(
      expect.objectContaining({
        actor: 'service',
        kind: 'social.link',
        target: 'minecraft:Steve',
        outcome: 'ok',
      }),
    );
    const reused = await bot.post('/social/brain/link', {
      platform: 'minecraft',
      user_id: 'Steve',
      proof: code.body.code,
    });
    expect(reused.body.code).toBe('LINK_PROOF_INVALID');
    const profile = await bot
      .get('/social/brain/profile/minecraft/Steve?viewer_platform=minecraft&viewer_user_id=Alex')
      .expect(200);
    expect(profile.body.person).toEqual({ platform: 'web', user_id: ann.userId });
    expect(profile.body.identities.map((i: { platform: string }) => i.platform)).toEqual([
      'web',
      'minecraft',
    ]);
    expect(profile.body.trust.viewer_trusts_them).toBe(55);
    // Ann may now act as Steve; Bob may not.
    await as(url, ann.token)
      .post('/social/brain/fren', {
        platform: 'minecraft',
        user_id: 'Steve',
        target_platform: 'minecraft',
        target_user_id: 'Alex',
      })
      .expect(200);
    const notBob = await as(url, bob.token).post('/social/brain/fren', {
      platform: 'minecraft',
      user_id: 'Steve',
      target_platform: 'minecraft',
      target_user_id: 'Alex',
    });
    expect(notBob.body.code).toBe('NOT_YOUR_IDENTITY');
  });

  it('never moves a linked account silently (409), and unlinks only the owner’s accounts', async () => {
    await bot
      .post('/social/brain/link', {
        platform: 'discord',
        user_id: `d-${ann.userId}`,
        web_user_id: ann.userId,
      })
      .expect(200);
    const again = await bot.post('/social/brain/link', {
      platform: 'discord',
      user_id: `d-${ann.userId}`,
      web_user_id: ann.userId,
    });
    expect(again.body.linked).toBe(false);
    const moved = await bot.post('/social/brain/link', {
      platform: 'discord',
      user_id: `d-${ann.userId}`,
      web_user_id: bob.userId,
    });
    expect(moved.status).toBe(409);
    expect(moved.body).toMatchObject({
      code: 'IDENTITY_LINKED_ELSEWHERE',
      detail: `discord:d-${ann.userId} is linked to another person; unlink it first`,
    });
    const byBob = await as(url, bob.token).delete('/social/brain/link', {
      platform: 'discord',
      user_id: `d-${ann.userId}`,
    });
    expect(byBob.status).toBe(403);
    const byAnn = await as(url, ann.token).delete('/social/brain/link', {
      platform: 'discord',
      user_id: `d-${ann.userId}`,
    });
    expect(byAnn.status).toBe(200);
    expect(byAnn.body.person).toEqual({ platform: 'discord', user_id: `d-${ann.userId}` });
    const notLinked = await as(url, ann.token).delete('/social/brain/link', {
      platform: 'discord',
      user_id: `d-${ann.userId}`,
    });
    expect(notLinked.status).toBe(404);
    expect(notLinked.body.code).toBe('LINK_NOT_FOUND');
  });

  it('links the other way: the bot gets a code for the chat account, the signed-in user redeems it', async () => {
    const code = await bot
      .post('/social/brain/link/code', { platform: 'discord', user_id: `chat-${bob.userId}` })
      .expect(201);
    const redeemed = await as(url, bob.token).post('/social/brain/link', {
      platform: 'discord',
      user_id: `chat-${bob.userId}`,
      proof: code.body.code,
    });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.person).toEqual({ platform: 'web', user_id: bob.userId });
    const noProof = await as(url, bob.token).post('/social/brain/link', {
      platform: 'discord',
      user_id: 'x',
      web_user_id: bob.userId,
    });
    expect(noProof.status).toBe(400);
    expect(noProof.body.code).toBe('LINK_PROOF_REQUIRED');
  });
});
