import request from 'supertest';
import { Room, type Client as RoomClient } from '@colyseus/core';
import { Client } from '@colyseus/sdk';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/** Minimal room for this test: replies to "ping" with "pong". */
class EchoRoom extends Room {
  override onCreate() {
    this.onMessage('ping', (client: RoomClient, payload: unknown) => client.send('pong', payload));
  }
}

describe('Colyseus on the platform HTTP server', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { ROLES: 'api,game,worker' },
      { rooms: [{ name: 'echo', room: EchoRoom }] },
    );
  });
  afterAll(() => server.stop());

  it('matchmakes and exchanges messages on the same port as the API', async () => {
    const client = new Client(server.url);
    const room = await client.joinOrCreate('echo');
    const reply = new Promise((resolve) => room.onMessage('pong', resolve));
    room.send('ping', { n: 1 });
    await expect(reply).resolves.toEqual({ n: 1 });
    await room.leave();
    expect((await request(server.url).get('/healthz')).status).toBe(200);
  });

  it('answers matchmaking for an unknown room type with a 404 problem', async () => {
    const res = await request(server.url).post('/matchmake/joinOrCreate/nope').send({});
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({
      code: 'MATCHMAKE_UNKNOWN_ROOM_TYPE',
      detail: 'No room type of that name',
    });
  });

  it('keeps the monitor closed when no admin guard is composed', async () => {
    const res = await request(server.url).get('/colyseus/api');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ADMIN_DISABLED');
  });
});
