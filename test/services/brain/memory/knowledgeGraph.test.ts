import { SERVICE_TOKEN, startMemoryPlatform, type MemoryTestPlatform } from './memoryPlatform';

const SUBJECT = 'companion:u1:pip';

describe('bi-temporal facts and /brain/graph/entities', () => {
  let server: MemoryTestPlatform;
  const remember = (content: string, occurred_at: string) =>
    server
      .as(SERVICE_TOKEN)
      .post('/brain/memory/remember', { subject: SUBJECT, content, occurred_at })
      .expect(201);

  beforeAll(async () => {
    server = await startMemoryPlatform();
    server.clock.set(Date.parse('2026-07-01T00:00:00.000Z'));
    await remember('Ann lives in Riverside.', '2026-01-10T00:00:00.000Z');
    await remember('Ann moved to Hilltown.', '2026-06-01T00:00:00.000Z');
    await remember('Ann likes honey cakes.', '2026-06-02T00:00:00.000Z');
  });
  afterAll(() => server.stop());

  it('closes the contradicted fact instead of deleting it, so what was true at a time has an answer', async () => {
    const march = await server
      .as(SERVICE_TOKEN)
      .get(`/brain/graph/entities/Ann?subject=${SUBJECT}&as_of=2026-03-01T00:00:00.000Z`)
      .expect(200);
    expect(
      march.body.facts.map((f: { predicate: string; object: string }) => [f.predicate, f.object]),
    ).toEqual([['lives_in', 'Riverside']]);
    const july = await server
      .as(SERVICE_TOKEN)
      .get(`/brain/graph/entities/ann?subject=${SUBJECT}&as_of=2026-07-01T00:00:00.000Z`)
      .expect(200);
    expect(
      july.body.facts.map((f: { predicate: string; object: string }) => [f.predicate, f.object]),
    ).toEqual([
      ['lives_in', 'Hilltown'],
      ['likes', 'honey cakes'],
    ]);
    const riverside = july.body.history.find((f: { object: string }) => f.object === 'Riverside');
    expect(riverside).toMatchObject({
      valid_from: '2026-01-10T00:00:00.000Z',
      valid_to: '2026-06-01T00:00:00.000Z',
    });
    expect(riverside.expired_at).not.toBeNull();
    expect(july.body).toMatchObject({ name: 'Ann', mention_count: 3 });
  });

  it('lists entities with mention counts, filtered by q', async () => {
    const res = await server
      .as(SERVICE_TOKEN)
      .get(`/brain/graph/entities?subject=${SUBJECT}&q=hill`)
      .expect(200);
    expect(res.body.entities.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([
      ['Hilltown', 'place'],
    ]);
    const all = await server.as(SERVICE_TOKEN).get(`/brain/graph/entities?subject=${SUBJECT}`).expect(200);
    expect(all.body.entities[0]).toMatchObject({
      name: 'Ann',
      type: 'person',
      mention_count: 3,
      aliases: [],
    });
  });

  it('answers a knowledge-update recall with the newest fact first, and the old one as of then', async () => {
    const now = await server
      .as(SERVICE_TOKEN)
      .post('/brain/memory/recall', { subject: SUBJECT, query: 'Where does Ann live?' })
      .expect(200);
    expect(now.body.hits[0].content).toMatch(/Hilltown/);
    const then = await server
      .as(SERVICE_TOKEN)
      .post('/brain/memory/recall', {
        subject: SUBJECT,
        query: 'Where does Ann live?',
        as_of: '2026-03-01T00:00:00.000Z',
      })
      .expect(200);
    expect(then.body.hits.map((h: { content: string }) => h.content).join(' ')).not.toMatch(/Hilltown/);
    expect(then.body.hits[0].content).toMatch(/Riverside/);
  });

  it('answers 404 GRAPH_ENTITY_NOT_FOUND for an unknown entity', async () => {
    const res = await server
      .as(SERVICE_TOKEN)
      .get(`/brain/graph/entities/Zed?subject=${SUBJECT}`)
      .expect(404);
    expect(res.body).toMatchObject({ code: 'GRAPH_ENTITY_NOT_FOUND', detail: 'No entity named Zed' });
  });

  it('counts every mention when many memories are remembered at once (their upserts are merged and written together)', async () => {
    const subject = 'companion:u1:crowd';
    const places = ['well', 'mill', 'forge', 'harbour', 'orchard', 'chapel', 'bridge', 'market'];
    const moods = ['laughing', 'arguing', 'singing', 'whispering', 'trading'];
    const remembered = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        server
          .as(SERVICE_TOKEN)
          .post('/brain/memory/remember', {
            subject,
            content: `Rowan met Quill at the ${places[i % 8]}, ${moods[i % 5]} about ${i} coins.`,
          })
          .expect(201),
      ),
    );
    // A near-duplicate merges into an earlier memory and is not a new mention.
    const stored = new Set(remembered.map((res) => res.body.id)).size;
    const rowan = await server
      .as(SERVICE_TOKEN)
      .get(`/brain/graph/entities/Rowan?subject=${subject}`)
      .expect(200);
    const listed = await server.as(SERVICE_TOKEN).get(`/brain/graph/entities?subject=${subject}`).expect(200);

    expect(stored).toBeGreaterThan(30);
    expect(rowan.body).toMatchObject({ name: 'Rowan', mention_count: stored });
    expect(listed.body.entities.find((e: { name: string }) => e.name === 'Quill')).toMatchObject({
      mention_count: stored,
    });
  });
});
