import request from 'supertest';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, signIn } from '../mud/worldPlatform';
import { marketClient, startMarketPlatform } from './marketPlatform';

describe('marketplace search: semantic by default, keyword, filters, sort, cursor, similar', () => {
  let server: TestPlatform;
  let market: ReturnType<typeof marketClient>;
  let smith: Player;
  let healer: Player;
  const ids: Record<string, string> = {};

  const titles = (res: request.Response) =>
    res.body.results.map((r: { listing: { title: string } }) => r.listing.title);

  beforeAll(async () => {
    ({ server } = await startMarketPlatform());
    market = marketClient(server);
    smith = await signIn(server.url);
    healer = await signIn(server.url);
    const offers: Array<[Player, string, string, string, string, string]> = [
      [smith, 'iron-sword', 'Iron sword', 'A sharp iron blade for fighting rats and wolves', 'soft', '40'],
      [
        smith,
        'steel-sword',
        'Steel sword',
        'A sharp steel blade, better for fighting than iron',
        'hard',
        '3',
      ],
      [healer, 'herb-tea', 'Healing herb tea', 'Brewed herbs that restore health after a fight', 'soft', '5'],
      [healer, 'cave-map', 'Map of the caves', 'Every tunnel and hidden chamber of the caves', 'soft', '12'],
    ];
    for (const [seller, slug, title, description, currency, amount] of offers) {
      const res = await market
        .list(seller, {
          item: `content:${slug}`,
          title,
          description,
          price: { currency, amount },
          category: 'guide',
        })
        .expect(201);
      ids[slug] = res.body.id;
    }
  });
  afterAll(() => server.stop());

  it('ranks by meaning by default and scores the results', async () => {
    const res = await market.search('q=restore%20health%20herbs').expect(200);
    expect(titles(res)[0]).toBe('Healing herb tea');
    expect(res.body.results[0].score).toEqual(expect.any(Number));
    const swords = await market.search('q=sharp%20blade%20sword&limit=2').expect(200);
    expect(titles(swords).sort()).toEqual(['Iron sword', 'Steel sword']);
  });

  it('matches every keyword in the title or description with semantic=false', async () => {
    const res = await market.search('q=sharp%20blade&semantic=false&sort=price_asc').expect(200);
    expect(titles(res)).toEqual(['Steel sword', 'Iron sword']);
    expect(res.body.results[0].score).toBeNull();
    const none = await market.search('q=dragon&semantic=false').expect(200);
    expect(none.body).toEqual({ results: [], next_cursor: null });
  });

  it('filters by currency, price range and seller, sorts and pages with a cursor', async () => {
    const hard = await market.search('q=sword&currency=hard').expect(200);
    expect(titles(hard)).toEqual(['Steel sword']);
    const cheap = await market
      .search(`q=guide&semantic=false&seller=${healer.userId}&max_price=10`)
      .expect(200);
    expect(titles(cheap)).toEqual([]);
    const healers = await market
      .search(`semantic=false&seller=${healer.userId}&sort=price_desc&limit=1`)
      .expect(200);
    expect(titles(healers)).toEqual(['Map of the caves']);
    const next = await market
      .search(
        `semantic=false&seller=${healer.userId}&sort=price_desc&limit=1&cursor=${healers.body.next_cursor}`,
      )
      .expect(200);
    expect(titles(next)).toEqual(['Healing herb tea']);
    expect(next.body.next_cursor).toBeNull();
    const bad = await market.search('cursor=nonsense');
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('finds similar listings by vector and drops listings no longer for sale', async () => {
    const similar = await request(server.url)
      .get(`/marketplace/listings/${ids['iron-sword']}/similar?limit=1`)
      .expect(200);
    expect(titles(similar)).toEqual(['Steel sword']);
    await market.cancel(smith, ids['steel-sword']).expect(200);
    const after = await request(server.url)
      .get(`/marketplace/listings/${ids['iron-sword']}/similar?limit=1`)
      .expect(200);
    expect(titles(after)).not.toContain('Steel sword');
    const search = await market.search('q=steel%20sword').expect(200);
    expect(titles(search)).not.toContain('Steel sword');
  });
});
