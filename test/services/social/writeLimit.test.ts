import {
  SOCIAL_SERVICE_TOKEN,
  as,
  buildInteraction,
  signUp,
  startSocialPlatform,
  type SocialPlatform,
} from './socialPlatform';

describe('social brain: per-user write limit', () => {
  let platform: SocialPlatform;

  beforeAll(async () => {
    platform = await startSocialPlatform({}, undefined, { userWritesPerMinute: 3 });
  });
  afterAll(() => platform.stop());

  it('refuses a user’s changes past the limit with 429 and Retry-After; reads and the service token go on', async () => {
    const ann = await signUp(platform.url);
    const mine = (kind: string) =>
      buildInteraction({ platform: 'web', user_id: ann.userId, target_user_id: 'bob', kind });
    for (const kind of ['insult', 'spam', 'insult'])
      await as(platform.url, ann.token).post('/social/brain/interaction', mine(kind)).expect(201);
    const limited = await as(platform.url, ann.token).post('/social/brain/fren', {
      platform: 'web',
      user_id: ann.userId,
      target_platform: 'discord',
      target_user_id: 'bob',
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', detail: 'At most 3 social changes a minute' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await as(platform.url, ann.token).get('/social/brain/stats').expect(200);
    await as(platform.url, SOCIAL_SERVICE_TOKEN)
      .post('/social/brain/interaction', buildInteraction())
      .expect(201);
  });
});
