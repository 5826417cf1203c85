import request from 'supertest';
import { LocalPresence, Room, type Client as RoomClient } from '@colyseus/core';
import { Client } from '@colyseus/sdk';
import { placeRooms, ROOM_PINS_KEY } from '../../platform/game/gameServer';
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

describe('where the matchmaker creates rooms (GAME_HOSTS_ROOMS)', () => {
  // Process "a" holds more rooms than "b": the default rule would pick "b".
  const listed = async () => [
    { processId: 'a', roomCount: 3 },
    { processId: 'b', roomCount: 1 },
  ];

  it('creates a pinned room type on the process that pinned it, the others on the one with the fewest rooms', async () => {
    const presence = new LocalPresence();
    await presence.hset(ROOM_PINS_KEY, 'area_caves', 'a');
    const place = placeRooms(presence, listed);
    expect(await place('area_caves')).toBe('a');
    expect(await place('area_marsh')).toBe('b');
  });

  it('passes over a pin whose process is no longer listed', async () => {
    const presence = new LocalPresence();
    await presence.hset(ROOM_PINS_KEY, 'area_caves', 'gone');
    expect(await placeRooms(presence, listed)('area_caves')).toBe('b');
  });
});

describe('a pin naming a room type the server does not define', () => {
  it('refuses to start, naming the variable, the types it defines and the unknown one', async () => {
    await expect(
      startTestPlatform(
        { ROLES: 'api,game,worker', GAME_HOSTS_ROOMS: 'echo,ecko' },
        { rooms: [{ name: 'echo', room: EchoRoom }] },
      ),
    ).rejects.toThrow('GAME_HOSTS_ROOMS: room types this server defines (echo) (got "ecko")');
  });
});
