import request from 'supertest';
import type { ApiRoutes } from '../../platform/http/routes';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

const pingService = (routes: ApiRoutes) =>
  routes.add({
    method: 'get',
    path: '/ping',
    summary: 'ping',
    tags: ['test'],
    responses: { 200: { description: 'pong' } },
    handler: () => ({ status: 200, body: { pong: true } }),
  });

describe('roles', () => {
  let server: TestPlatform | undefined;
  afterEach(() => server?.stop());

  it('api role serves service routes but no game endpoints', async () => {
    server = await startTestPlatform({ ROLES: 'api' }, { services: [pingService] });
    expect((await request(server.url).get('/ping')).body).toEqual({ pong: true });
    expect(server.platform.game).toBeUndefined();
    expect((await request(server.url).post('/matchmake/joinOrCreate/x').send({})).status).toBe(404);
    expect((await request(server.url).get('/colyseus/api')).status).toBe(404);
  });

  it('game role runs Colyseus without service routes', async () => {
    server = await startTestPlatform({ ROLES: 'game' }, { services: [pingService] });
    expect(server.platform.game).toBeDefined();
    expect((await request(server.url).get('/ping')).status).toBe(404);
    expect((await request(server.url).get('/healthz')).status).toBe(200);
  });

  it('worker role still answers health probes', async () => {
    server = await startTestPlatform({ ROLES: 'worker' }, { services: [pingService] });
    expect((await request(server.url).get('/healthz')).status).toBe(200);
    expect((await request(server.url).get('/ping')).status).toBe(404);
    expect(server.platform.game).toBeUndefined();
  });
});
