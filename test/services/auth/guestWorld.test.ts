import { Wallet } from 'ethers';
import request from 'supertest';
import { signInWithWallet } from '../../helpers/siwe';
import type { TestPlatform } from '../../helpers/platform';
import { ChannelClient, startWorldPlatform } from '../mud/worldPlatform';

/**
 * Tier 0 (Anonymous) in practice: a guest session reaches the twelve verified endpoints documented in
 * services/auth/guest/README.md, is refused ingest into the shared brain indexes with 403 ROLE_REQUIRED, and keeps its
 * character when it links a wallet.
 */
describe('guests at tier 0', () => {
  let server: TestPlatform;
  let guest: { token: string; user_id: string; display_name: string };
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    server = await startWorldPlatform();
    const res = await request(server.url)
      .post('/auth/guest')
      .send({ display_name: 'Wren Tester' })
      .expect(201);
    guest = res.body;
  });
  afterAll(() => server.stop());

  it('reaches every tier-0 endpoint', async () => {
    const { url } = server;
    const auth = as(guest.token);
    expect((await request(url).get('/auth/me').set(auth)).status).toBe(200);
    expect((await request(url).put('/auth/me').set(auth).send({ display_name: 'Wren Tester' })).status).toBe(
      200,
    );
    const forward = await request(url).get('/auth/forward').set(auth);
    expect(forward.status).toBe(200);
    expect(forward.headers['x-user-tier']).toBe('0 Anonymous');
    const look = await request(url).post('/mud/action').set(auth).send({ action: 'look' });
    expect(look.status).toBe(200);
    expect(look.body.player.name).toBe('Wren Tester');
    const move = await request(url).post('/mud/move').set(auth).send({ direction: 'east' });
    expect(move.status).toBe(200);
    expect(move.body.room).toBe('village:market');
    expect((await request(url).get('/mud/spawns/status').set(auth)).status).toBe(200);
    const channel = await ChannelClient.open(url, guest.user_id, guest.token);
    await channel.close();
    expect((await request(url).post('/brain/search').set(auth).send({ query: 'village' })).status).toBe(200);
    expect((await request(url).get('/brain/stats').set(auth)).status).toBe(200);
    expect((await request(url).get('/brain/cache/stats').set(auth)).status).toBe(200);
    const other = await request(url).post('/auth/guest').expect(201);
    expect((await request(url).post('/auth/logout').set(as(other.body.token))).status).toBe(204);
  });

  it('refuses ingest into the shared brain indexes with 403 ROLE_REQUIRED', async () => {
    const res = await request(server.url)
      .post('/brain/ingest')
      .set(as(guest.token))
      .send({ documents: [{ source: 'docs/DESIGN.md', index: 'docs', text: 'Poisoned.' }] });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'ROLE_REQUIRED',
      detail: 'Requires the service token or the operator role',
    });
  });

  it('keeps its character when it links a wallet', async () => {
    const linked = await signInWithWallet(server.url, Wallet.createRandom(), guest.token);
    expect(linked.status).toBe(202);
    const me = await request(server.url).get('/auth/me').set(as(linked.body.token)).expect(200);
    expect(me.body).toMatchObject({ id: guest.user_id, tier: 2, display_name: 'Wren Tester' });
    const look = await request(server.url)
      .post('/mud/action')
      .set(as(linked.body.token))
      .send({ action: 'look' });
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({ user_id: guest.user_id, room: 'village:market' });
    expect(look.body.player.name).toBe('Wren Tester');
  });
});
