import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildBatch,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
} from './socialPlatform';
import { NARROWER_WEIGHT } from '../../../services/social/peopleSearch';

const AT = '2026-11-26T08:00:00Z';

describe('social brain: bot sync batches', () => {
  let platform: SocialPlatform;
  let bot: ReturnType<typeof as>;

  beforeAll(async () => {
    platform = await startSocialPlatform();
    bot = as(platform.url, SOCIAL_SERVICE_TOKEN);
  });
  afterAll(() => platform.stop());

  it('applies a block-game batch: players seen, chat, trades both ways, kills', async () => {
    const batch = buildBatch(
      [
        { type: 'player_seen', user_id: 'uuid-steve', name: 'Steve', at: AT },
        { type: 'join', user_id: 'uuid-alex', name: 'Alex', at: AT },
        { type: 'chat', user_id: 'uuid-steve', message: 'anyone selling diamonds near spawn?', at: AT },
        {
          type: 'trade',
          user_id: 'uuid-steve',
          target_user_id: 'uuid-alex',
          items: '3 diamonds for 40 iron',
          at: AT,
        },
        { type: 'kill', user_id: 'uuid-griefer', target_user_id: 'uuid-alex', weapon: 'sword', at: AT },
        { type: 'leave', user_id: 'uuid-alex', at: AT },
      ],
      { bot_instance_id: 'mc-1', seq: 1 },
    );
    const res = await bot.post('/social/brain/minecraft/sync', batch);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      bot_instance_id: 'mc-1',
      seq: 1,
      accepted: 6,
      interactions: 4,
      identities: 3,
      highest_seq: 1,
      gap: null,
      missing: [],
    });
    const alex = await bot.get('/social/brain/relationships/minecraft/uuid-alex').expect(200);
    expect(
      alex.body.outgoing.map((p: { identity: { user_id: string }; trust: number; relationship: string }) => [
        p.identity.user_id,
        p.trust,
        p.relationship,
      ]),
    ).toEqual([
      ['uuid-steve', 53, 'neutral'],
      ['uuid-griefer', 35, 'wary'],
    ]);
    const profile = await bot.get('/social/brain/profile/minecraft/uuid-steve').expect(200);
    expect(profile.body.identities[0].display_name).toBe('Steve');
    expect(profile.body.topics.map((t: { term: string }) => t.term)).toEqual(
      expect.arrayContaining(['diamond', 'iron']),
    );
    // Trades (once, though trust moved both ways) and kills are remembered for both people; plain chat is not.
    const remembered = (subject: string) =>
      platform.ports.memories
        .filter((m) => m.subject === subject)
        .map((m) => m.kind)
        .sort();
    expect(remembered('social:minecraft:uuid-alex')).toEqual(['social.kill', 'social.trade_completed']);
    expect(remembered('social:minecraft:uuid-steve')).toEqual(['social.trade_completed']);
    // Each names both people, so only the same text may merge into it.
    expect(new Set(platform.ports.memories.map((m) => m.duplicates))).toEqual(new Set(['exact']));
  });

  it('is idempotent by (bot, seq): a replay answers the first result and changes nothing; other events are 409', async () => {
    const batch = buildBatch(
      [{ type: 'interaction', user_id: 'helper', target_user_id: 'newbie', kind: 'help', at: AT }],
      { bot_instance_id: 'mc-idem', seq: 1 },
    );
    const first = await bot.post('/social/brain/minecraft/sync', batch).expect(200);
    const replay = await bot.post('/social/brain/minecraft/sync', batch);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const history = await bot
      .get('/social/brain/trust/minecraft/helper/history?viewer_platform=minecraft&viewer_user_id=newbie')
      .expect(200);
    expect(history.body.trust).toBe(54);
    expect(history.body.changes).toHaveLength(1);
    const conflict = await bot.post('/social/brain/minecraft/sync', {
      ...batch,
      events: [{ ...batch.events[0], kind: 'gift' }],
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      code: 'SYNC_BATCH_CONFLICT',
      detail: 'Batch 1 of mc-idem was already received with other events',
    });
  });

  it('applies a batch interrupted by a crash again when it is resent, counting nothing twice', async () => {
    const batch = buildBatch(
      [
        { type: 'interaction', user_id: 'crash-a', target_user_id: 'crash-b', kind: 'gift', at: AT },
        { type: 'chat', user_id: 'crash-a', message: 'thanks for the emeralds', at: AT },
      ],
      { bot_instance_id: 'mc-crash', seq: 1 },
    );
    const first = await bot.post('/social/brain/minecraft/sync', batch).expect(200);
    // As if the process died after applying the events, before recording the answer.
    await platform.area.social.context.store.batches.updateOne(
      { _id: 'minecraft:mc-crash:1' },
      { $set: { state: 'pending', result: null } },
    );
    const resent = await bot.post('/social/brain/minecraft/sync', batch);
    expect(resent.status).toBe(200);
    expect(resent.headers['idempotent-replayed']).toBeUndefined();
    expect(resent.body).toEqual(first.body);
    const history = await bot
      .get('/social/brain/trust/minecraft/crash-a/history?viewer_platform=minecraft&viewer_user_id=crash-b')
      .expect(200);
    expect(history.body).toMatchObject({ trust: 55, changes: [{ cause: 'interaction:gift', applied: 5 }] });
    const profile = await bot.get('/social/brain/profile/minecraft/crash-a').expect(200);
    expect(profile.body.recent.interactions).toBe(2);
  });

  it('reports a gap in the sequence and what is still missing until late batches arrive', async () => {
    const send = (seq: number) =>
      bot.post(
        '/social/brain/discord/sync',
        buildBatch([{ type: 'member_seen', user_id: `m${seq}`, at: AT }], {
          bot_instance_id: 'dc-gaps',
          seq,
        }),
      );
    await send(1).expect(200);
    const skipped = await send(5);
    expect(skipped.body).toMatchObject({
      highest_seq: 5,
      gap: { from: 2, to: 4 },
      missing: [{ from: 2, to: 4 }],
    });
    const late = await send(3);
    expect(late.body).toMatchObject({
      highest_seq: 5,
      gap: null,
      missing: [
        { from: 2, to: 2 },
        { from: 4, to: 4 },
      ],
    });
  });

  it('applies chat-platform messages and reactions, and people are found by what they talk about', async () => {
    const events = [
      {
        type: 'message',
        user_id: 'builder',
        content: 'Building a castle with stone bricks and castle walls',
        at: AT,
      },
      { type: 'message', user_id: 'farmer', content: 'My wheat farm and carrot farming setup', at: AT },
      {
        type: 'message',
        user_id: 'farmer',
        content: 'replying about farms',
        reply_to_user_id: 'builder',
        sentiment: 1,
        at: AT,
      },
      { type: 'reaction', user_id: 'builder', target_user_id: 'farmer', emoji: '👍', at: AT },
      {
        type: 'message',
        user_id: 'warrior',
        content: 'Forged a new sword, and a spear for my squire',
        at: AT,
      },
    ];
    await bot
      .post('/social/brain/discord/sync', buildBatch(events, { bot_instance_id: 'dc-1', seq: 1 }))
      .expect(200);
    const found = await bot.post('/social/brain/search', { query: 'who farms?' });
    expect(found.status).toBe(200);
    expect(found.body.results[0]).toMatchObject({
      person: { platform: 'discord', user_id: 'farmer' },
      matched: ['farm'],
    });
    // "agriculture" is not in anyone's words; WordNet's synonym "farming" is.
    const widened = await bot.post('/social/brain/search', { query: 'agriculture' }).expect(200);
    expect(widened.body.results[0]).toMatchObject({ person: { user_id: 'farmer' }, matched: ['farm'] });
    expect(widened.body.results[0].score).toBeLessThan(found.body.results[0].score);
    // Nobody says "weapons"; WordNet's narrower kinds of a weapon include the sword and the spear (the griefer
    // of an earlier test killed with a sword).
    const weapons = await bot.post('/social/brain/search', { query: 'any weapons?' }).expect(200);
    expect(weapons.body.results.map((r: { person: { user_id: string } }) => r.person.user_id)).toEqual([
      'warrior',
      'uuid-griefer',
    ]);
    expect(weapons.body.results[0]).toMatchObject({
      person: { user_id: 'warrior' },
      matched: ['spear', 'sword'],
    });
    // The same people use "sword" either way: reached through a kind it counts NARROWER_WEIGHT of the word itself.
    const swords = await bot.post('/social/brain/search', { query: 'sword' }).expect(200);
    const griefer = (body: { results: { person: { user_id: string }; score: number }[] }) =>
      body.results.find((r) => r.person.user_id === 'uuid-griefer')!.score;
    expect(griefer(weapons.body)).toBeCloseTo(NARROWER_WEIGHT * griefer(swords.body), 2);
    const castles = await bot
      .post('/social/brain/search', { query: 'castles', platform: 'discord' })
      .expect(200);
    expect(castles.body.results.map((r: { person: { user_id: string } }) => r.person.user_id)).toEqual([
      'builder',
    ]);
    const none = await bot.post('/social/brain/search', { query: 'castles', platform: 'web' }).expect(200);
    expect(none.body.results).toEqual([]);
  });

  it('rejects malformed batches with 400 naming the paths, and a user session with 403', async () => {
    const tooMany = buildBatch(
      Array.from({ length: 501 }, (_, i) => ({ type: 'member_seen', user_id: `u${i}`, at: AT })),
    );
    const big = await bot.post('/social/brain/discord/sync', tooMany);
    expect(big.status).toBe(400);
    expect(big.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.events']);
    const wrongPlatform = await bot.post(
      '/social/brain/discord/sync',
      buildBatch([{ type: 'kill', user_id: 'a', target_user_id: 'b', at: AT }]),
    );
    expect(wrongPlatform.status).toBe(400);
    expect(wrongPlatform.body.errors[0].path).toBe('body.events.0.type');
    const longText = await bot.post(
      '/social/brain/minecraft/sync',
      buildBatch([{ type: 'chat', user_id: 'a', message: 'x'.repeat(2001), at: AT }]),
    );
    expect(longText.status).toBe(400);
    expect(longText.body.errors[0].path).toBe('body.events.0.message');
    const noSeq = await bot.post('/social/brain/minecraft/sync', {
      bot_instance_id: 'x',
      sent_at: AT,
      events: [],
    });
    expect(noSeq.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'body.events',
      'body.seq',
    ]);
    const user = await signUp(platform.url);
    const asUser = await as(platform.url, user.token).post(
      '/social/brain/minecraft/sync',
      buildBatch([{ type: 'leave', user_id: 'a', at: AT }]),
    );
    expect(asUser.status).toBe(403);
    expect(asUser.body.code).toBe('SERVICE_TOKEN_REQUIRED');
    // Nothing of a rejected batch was stored.
    expect((await bot.get('/social/brain/profile/discord/u0')).status).toBe(404);
  });
});
