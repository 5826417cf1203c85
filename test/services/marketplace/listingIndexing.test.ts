import { Types } from 'mongoose';
import request from 'supertest';
import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { UnavailableError } from '../../../platform/errors';
import { ListingVectors } from '../../../services/marketplace/listingVectors';
import { MARKETPLACE_RECOVERY_JOB } from '../../../services/marketplace/marketRecovery';
import { eventually } from '../../helpers/eventually';
import type { TestPlatform } from '../../helpers/platform';
import { metricValue } from '../brain/brainPlatform';
import { type Player, signIn } from '../mud/worldPlatform';
import { marketClient, startMarketPlatform } from './marketPlatform';

type AreaStatus = { name: string; state: string; indexes: Record<string, number>; detail: string | null };

/**
 * A listing is stored, then its vector is put in the search collection. When that fails it is for sale but not
 * findable by meaning, and says so: `search_indexed: false` in its answer, a counted failure and a gauge, and the
 * marketplace area of `/admin/brain/status`; the recovery job indexes it once the brain is back. Input the vector
 * store could not take (a NUL) is published whole.
 */
describe('marketplace: a listing semantic search cannot find yet is visible, and indexed when the brain is back', () => {
  let server: TestPlatform;
  let admin: Player;
  let seller: Player;
  let market: ReturnType<typeof marketClient>;

  const listing = async (id: string) =>
    (await request(server.url).get(`/marketplace/listings/${id}`).expect(200)).body;
  const found = async (query: string, semantic = true) =>
    (await market.search(`q=${encodeURIComponent(query)}&semantic=${semantic}`).expect(200)).body.results.map(
      (r: { listing: { id: string } }) => r.listing.id,
    );
  const metric = async (name: string, labels: Record<string, string> = {}) =>
    metricValue((await request(server.url).get('/metrics').expect(200)).text, name, labels);
  const marketStatus = async (): Promise<AreaStatus> => {
    const res = await request(server.url)
      .get('/admin/brain/status')
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    return res.body.areas.find((area: AreaStatus) => area.name === 'marketplace');
  };
  /** Makes the listing look 31 s old to the recovery pass (which leaves anything younger to its request). */
  const age = (id: string) =>
    server.platform.stores.mongo
      .collection('marketlistings')
      .updateOne({ _id: new Types.ObjectId(id) }, { $set: { updatedAt: new Date(Date.now() - 31_000) } });
  const recover = () => server.platform.scheduler.agenda.now(MARKETPLACE_RECOVERY_JOB);

  beforeAll(async () => {
    ({ server, admin } = await startMarketPlatform());
    market = marketClient(server);
    seller = await signIn(server.url);
  });
  afterAll(() => server.stop());
  afterEach(() => jest.restoreAllMocks());

  it('publishes a listing with NUL characters in its title and description whole: stored, indexed, found', async () => {
    const res = await market
      .list(seller, {
        item: 'content:nul-rope',
        title: 'Climbing\u0000rope',
        description: 'Forty feet of braided\u0000hemp rope for cliffs',
        price: { currency: 'soft', amount: '7' },
      })
      .expect(201);
    expect(res.body).toMatchObject({
      title: 'Climbing\u0000rope',
      description: 'Forty feet of braided\u0000hemp rope for cliffs',
      state: 'active',
      search_indexed: true,
    });
    expect(await listing(res.body.id)).toMatchObject({ title: 'Climbing\u0000rope', search_indexed: true });
    expect(await found('braided hemp rope for climbing cliffs')).toContain(res.body.id);
    expect(await metric('marketplace_listings_unindexed')).toBe(0);
  });

  it('keeps a listing the brain could not embed for sale, says it is not indexed, and indexes it on recovery', async () => {
    const failuresBefore = await metric('marketplace_listing_indexings_total', { outcome: 'failed' });
    const embed = jest
      .spyOn(EmbeddingChain.prototype, 'embed')
      .mockRejectedValue(
        new UnavailableError('All embedding providers failed (local: failed)', 'BRAIN_EMBEDDING_UNAVAILABLE'),
      );
    const created = await market
      .list(seller, {
        item: 'content:glowing-lantern',
        title: 'Glowing lantern',
        description: 'A brass lantern that lights the darkest caves',
        price: { currency: 'soft', amount: '9' },
      })
      .expect(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ state: 'active', search_indexed: false });
    expect(embed).toHaveBeenCalled();
    embed.mockRestore();

    // For sale and found by keyword, not by meaning; counted, and shown to an operator.
    expect(await listing(id)).toMatchObject({ state: 'active', search_indexed: false });
    expect(await found('brass lantern', false)).toEqual([id]);
    expect(await found('brass lantern lights dark caves')).not.toContain(id);
    expect(await metric('marketplace_listing_indexings_total', { outcome: 'failed' })).toBe(
      failuresBefore + 1,
    );
    expect(await metric('marketplace_listings_unindexed')).toBe(1);
    const degraded = await marketStatus();
    expect(degraded).toMatchObject({ state: 'degraded', indexes: { unindexed_listings: 1 } });
    expect(degraded.indexes.active_listings).toBeGreaterThanOrEqual(2);
    expect(degraded.detail).toMatch(
      new RegExp(
        `^1 active listing\\(s\\) not in semantic search; oldest ${id} listed at ${created.body.created_at}, ` +
          '1 failed attempt\\(s\\), last BRAIN_EMBEDDING_UNAVAILABLE',
      ),
    );

    // The brain is back: the next recovery pass indexes it, and everything says so.
    await age(id);
    await recover();
    await eventually(async () => (await listing(id)).search_indexed, true);
    expect(await found('brass lantern lights dark caves')).toContain(id);
    expect(await metric('marketplace_listings_unindexed')).toBe(0);
    expect(await marketStatus()).toMatchObject({
      state: 'up',
      indexes: { unindexed_listings: 0 },
      detail: null,
    });
  });

  it('answers 201 with search_indexed false, not a 500 after storing, when the vector store fails', async () => {
    jest.spyOn(ListingVectors.prototype, 'index').mockRejectedValue(new Error('connect ECONNREFUSED'));
    const created = await market
      .list(seller, {
        item: 'content:oak-staff',
        title: 'Oak staff',
        description: 'A walking staff cut from an old oak',
        price: { currency: 'soft', amount: '4' },
      })
      .expect(201);
    expect(created.body).toMatchObject({ state: 'active', search_indexed: false });
    expect((await marketStatus()).detail).toMatch(/1 failed attempt\(s\), last Error /);
    jest.restoreAllMocks();
    await age(created.body.id);
    await recover();
    await eventually(async () => (await listing(created.body.id)).search_indexed, true);
    expect((await marketStatus()).state).toBe('up');
  });
});
