import { Wallet } from 'ethers';
import request from 'supertest';
import { Client } from '@colyseus/sdk';
import { signInWithWallet } from '../../helpers/siwe';
import type { TestPlatform } from '../../helpers/platform';
import { ChannelClient, signIn, startWorldPlatform, type Player } from '../../services/mud/worldPlatform';

/** Setup starts the whole product (and a chain); it takes longer than a test on a loaded machine. */
const SETUP_TIMEOUT_MS = 180_000;

const ALLOWED_ORIGIN = 'https://app.forge.test';

/** Matchmaking, malformed paths and the monitor on the composed product (game role). */
describe('game and path edges', () => {
  const admin = Wallet.createRandom();
  let server: TestPlatform;
  let player: Player;
  let adminToken: string;

  beforeAll(async () => {
    server = await startWorldPlatform({
      SIWE_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
      ADMIN_ADDRESSES: admin.address,
    });
    player = await signIn(server.url);
    adminToken = (await signInWithWallet(server.url, admin)).body.token;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => server.stop());

  const matchmake = (room = 'area_village', token?: string, body: object = {}) => {
    const req = request(server.url).post(`/matchmake/joinOrCreate/${room}`);
    if (token) req.set('Authorization', `Bearer ${token}`);
    return req.send(body);
  };
  const problemJson = 'application/problem+json; charset=utf-8';

  describe('malformed percent-encoding in a path', () => {
    it.each([
      ['PUT', '/auth/users/%ZZ/roles'],
      ['GET', '/mud/ws/%C0%AE'],
      ['GET', '/mud/ws/%E0%A4%A'],
    ])('%s %s answers 400 MALFORMED_PATH', async (method, path) => {
      const res = await request(server.url)[method === 'PUT' ? 'put' : 'get'](path).send({ roles: [] });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe(problemJson);
      expect(res.body).toMatchObject({
        code: 'MALFORMED_PATH',
        detail: 'The request path is not valid percent-encoding',
      });
    });

    it('refuses a WebSocket upgrade to /mud/ws/%ZZ with 400 MALFORMED_PATH', async () => {
      await expect(ChannelClient.open(server.url, '%ZZ', player.token)).rejects.toMatchObject({
        status: 400,
        body: { code: 'MALFORMED_PATH', type: '/problems/malformed-path' },
      });
    });
  });

  describe('matchmaking', () => {
    it('reserves no seat without a token: 401 problem', async () => {
      const res = await matchmake();
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe(problemJson);
      expect(res.body).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(res.body.sessionId).toBeUndefined();
    });

    it('reserves no seat for a forged token: 401 INVALID_CREDENTIAL', async () => {
      const res = await matchmake('area_village', 'fps_forged');
      expect([res.status, res.body.code]).toEqual([401, 'INVALID_CREDENTIAL']);
    });

    it('reserves a seat for a signed-in player, and the SDK joins with it', async () => {
      const res = await matchmake('area_village', player.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'area_village',
        roomId: 'area_village',
        sessionId: expect.any(String),
      });
      const client = new Client(server.url);
      client.auth.token = player.token;
      const room = await client.joinOrCreate('area_village');
      await room.leave();
    });

    it('maps matchmaker errors to problems with real statuses', async () => {
      const unknownRoom = await matchmake('area_nowhere', player.token);
      expect([unknownRoom.status, unknownRoom.body.code]).toEqual([404, 'MATCHMAKE_UNKNOWN_ROOM_TYPE']);
      const unknownMethod = await request(server.url).post('/matchmake/steal/area_village').send({});
      expect([unknownMethod.status, unknownMethod.body.code]).toEqual([404, 'MATCHMAKE_UNKNOWN_METHOD']);
      const noRoom = await request(server.url)
        .post('/matchmake/joinById/no-such-room')
        .set('Authorization', `Bearer ${player.token}`)
        .send({});
      expect([noRoom.status, noRoom.body.code]).toEqual([404, 'MATCHMAKE_ROOM_NOT_FOUND']);
      const notObject = await request(server.url)
        .post('/matchmake/joinOrCreate/area_village')
        .set('Authorization', `Bearer ${player.token}`)
        .set('Content-Type', 'application/json')
        .send('[1]');
      expect([notObject.status, notObject.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      for (const res of [unknownRoom, unknownMethod, noRoom, notObject])
        expect(res.headers['content-type']).toBe(problemJson);
    });

    it('follows the allowed-origin policy: no CORS headers for other origins or null', async () => {
      const preflight = (origin: string) =>
        request(server.url)
          .options('/matchmake/joinOrCreate/area_village')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'authorization,content-type');
      const allowed = await preflight(ALLOWED_ORIGIN);
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED_ORIGIN);
      for (const origin of ['https://evil.example', 'null']) {
        const refused = await preflight(origin);
        expect(refused.headers['access-control-allow-origin']).toBeUndefined();
        expect(refused.headers['access-control-allow-credentials']).toBeUndefined();
      }
    });
  });

  describe('the Colyseus monitor', () => {
    it('answers an unknown room with a 404 problem, not a bare 500', async () => {
      const res = await request(server.url)
        .get('/colyseus/api/room?roomId=no-such-room')
        .set('Authorization', `Bearer ${adminToken}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe(problemJson);
      expect(res.body.code).toBe('MONITOR_ROOM_NOT_FOUND');
    });

    it('still loads, under its own content security policy', async () => {
      const page = await request(server.url).get('/colyseus/').set('Authorization', `Bearer ${adminToken}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<div id="app">');
      expect(page.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
      const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.text)?.[1];
      const asset = await request(server.url)
        .get(`/colyseus/${script}`)
        .set('Authorization', `Bearer ${adminToken}`);
      expect(asset.status).toBe(200);
      const rooms = await request(server.url)
        .get('/colyseus/api')
        .set('Authorization', `Bearer ${adminToken}`);
      expect(rooms.status).toBe(200);
    });
  });
});
