import { SOCIAL_SERVICE_TOKEN, as, startSocialPlatform, type SocialPlatform } from './socialPlatform';

/** Polls `read` until `done` holds of its answer, failing after `timeoutMs`. */
async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('social brain: the world as an observer', () => {
  let platform: SocialPlatform;

  beforeAll(async () => {
    platform = await startSocialPlatform();
  });
  afterAll(() => platform.stop());

  it('makes players credited together for a kill trust each other a little, both ways, and remembers it', async () => {
    const [ann, bob, cat] = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24)];
    platform.world.publish({
      type: 'creature.killed',
      areaId: 'village',
      roomRef: 'village:square',
      creature: 'village:rat',
      userIds: [ann, bob, cat],
    });
    platform.world.publish({
      type: 'creature.killed',
      areaId: 'village',
      roomRef: 'village:square',
      creature: 'village:rat',
      userIds: [ann],
    });
    const bot = as(platform.url, SOCIAL_SERVICE_TOKEN);
    const relationships = await eventually(
      async () => (await bot.get(`/social/brain/relationships/web/${ann}`)).body,
      (body) => body.outgoing?.length === 2 && body.incoming?.length === 2,
    );
    expect(
      relationships.incoming.map((p: { identity: { user_id: string }; trust: number }) => [
        p.identity.user_id,
        p.trust,
      ]),
    ).toEqual([
      [bob, 52],
      [cat, 52],
    ]);
    const memories = platform.ports.memories.filter((memory) => memory.subject === `user:${ann}`);
    expect(memories).toHaveLength(4);
    expect(memories[0]).toMatchObject({
      kind: 'social.play_together',
      content: expect.stringContaining('fought village:rat together in village:square'),
    });
  });
});
