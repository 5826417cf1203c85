import { eventually } from '../../../helpers/eventually';
import { startMemoryPlatform, type MemoryTestPlatform, type MemoryUser } from './memoryPlatform';

/** Issue 36's paraphrased recalls: what a player said, and how they later ask for it in other words. */
const PARAPHRASES: [remembered: string, asked: string][] = [
  ['My favourite drink is a cortado with oat milk.', 'what coffee do I like?'],
  ['I keep my spare sword in the chapel crypt.', 'where did I hide my extra blade?'],
  ['My dad Piet is a retired ferry captain.', 'what did my father do for work?'],
  ["I'm terrified of spiders, so the Webwood cave is a no-go for me.", 'which creepy-crawlies frighten me?'],
  ["I lent my fishing rod to Bram and he still hasn't given it back.", 'who borrowed my angling gear?'],
  ["I'm learning the cello; my teacher is very strict.", 'which instrument am I taking lessons in?'],
];

/** Other things the same player said, so each answer must be found among neighbours. */
const CHATTER = [
  'The weather has been awful all week.',
  'I think the bridge quest is bugged, the troll never spawns.',
  'My sister Ilse lives in Rotterdam with her two kids.',
  'The blacksmith in Oakhollow charges far too much for repairs.',
  'I usually log in around eleven at night.',
  'Can you remind me how the crafting bench works later?',
  'The new armour dye looks really good in teal.',
  'I bought a second-hand bicycle to get to work.',
];

describe('memory recall by meaning (the sentence encoder, BRAIN_MEMORY_EMBEDDER=neural)', () => {
  let server: MemoryTestPlatform;
  let player: MemoryUser;

  beforeAll(async () => {
    server = await startMemoryPlatform({ BRAIN_MEMORY_EMBEDDER: 'neural' });
    player = await server.signUp();
    for (const content of [...PARAPHRASES.map(([remembered]) => remembered), ...CHATTER]) {
      await server.as(player.token).post('/brain/memory/remember', { content }).expect(201);
    }
    // Remember answers before the vectors are written; recall by meaning needs the background pass done.
    await eventually(
      async () => ((await server.stats()).memory_vectors as { pending: number }).pending,
      0,
      90_000,
      100,
    );
    // The background threads run at the lowest priority: on a busy machine they wait for every other thread.
  }, 120_000);
  afterAll(() => server.stop());

  it.each(PARAPHRASES)('finds "%s" in the top 5 when asked "%s"', async (remembered, asked) => {
    const res = await server
      .as(player.token)
      .post('/brain/memory/recall', { query: asked, limit: 5 })
      .expect(200);
    expect(res.body.hits.map((hit: { content: string }) => hit.content)).toContain(remembered);
  });

  it('keeps subjects apart on the neural path', async () => {
    const other = await server.signUp();
    const res = await server
      .as(other.token)
      .post('/brain/memory/recall', { query: 'what coffee do I like?' })
      .expect(200);
    expect(res.body.hits).toEqual([]);
  });
});
