import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@colyseus/sdk';
import Redis from 'ioredis';
import request from 'supertest';
import { type MongoEngine, startMongoEngine } from '../../../embedded/mongo';
import { type RunningServer, spawnServer, waitForLog } from '../../helpers/childProcess';
import { EventLog } from '../../helpers/gameServer';
import type { TestPlatform } from '../../helpers/platform';
import { ChannelClient, act, signIn, startWorldPlatform, textsOf } from './worldPlatform';

/** A Redis database of its own: the split test clears it, and stale room listings would misroute calls. */
const REDIS_URL = 'redis://127.0.0.1:6379/11';

describe('the world under --role splits', () => {
  let server: TestPlatform | undefined;
  let game: RunningServer | undefined;
  let mongo: MongoEngine | undefined;
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-mud-roles-'));
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    if (game && game.child.exitCode === null) {
      game.child.kill('SIGTERM');
      await game.exit;
    }
    game = undefined;
    await mongo?.close();
    mongo = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an api-only process without shared presence answers 503 WORLD_UNAVAILABLE', async () => {
    server = await startWorldPlatform({ ROLES: 'api,worker' });
    const ann = await signIn(server.url);
    const res = await act(server.url, ann, { action: 'look' });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'WORLD_UNAVAILABLE', type: '/problems/world-unavailable' });
    expect((await request(server.url).get('/mud/spawns/status')).body.code).toBe('WORLD_UNAVAILABLE');
    await expect(ChannelClient.open(server.url, ann.userId, ann.token)).rejects.toMatchObject({
      status: 503,
      body: { code: 'WORLD_UNAVAILABLE' },
    });
    expect((await request(server.url).post('/matchmake/joinOrCreate/area_village').send({})).status).toBe(
      404,
    );
  });

  it('a game-only process hosts the area rooms for SDK players, without the HTTP routes', async () => {
    server = await startWorldPlatform({ DATA_DIR: dir });
    const ann = await signIn(server.url);
    await server.stop();
    server = await startWorldPlatform({ DATA_DIR: dir, ROLES: 'game' });
    const client = new Client(server.url);
    client.auth.token = ann.token;
    const room = await client.joinOrCreate('area_village');
    await new EventLog(room).waitFor((e) => e.type === 'room.look');
    expect((await act(server.url, ann, { action: 'look' })).status).toBe(404);
    await expect(ChannelClient.open(server.url, ann.userId, ann.token)).rejects.toMatchObject({
      status: 404,
    });
    await room.leave();
  });

  it('an api process reaches the rooms of a separate game process through Redis', async () => {
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
    mongo = await startMongoEngine({ dir: path.join(dir, 'mongo') });
    const shared = { REDIS_URL, MONGODB_URI: mongo.uri, MONGODB_DB: 'mud_roles' };
    game = spawnServer({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'game'), ...shared }, [
      '--role',
      'game',
    ]);
    const gamePort = (await waitForLog(game, (line) => line.msg === 'listening', 60_000)).port as number;
    server = await startWorldPlatform({ ROLES: 'api,worker', ...shared });

    const [ann, bob] = [await signIn(server.url), await signIn(server.url)];
    const looked = await act(server.url, ann, { action: 'look' }).expect(200);
    expect(looked.body.room).toBe('village:square');

    const client = new Client(`http://127.0.0.1:${gamePort}`);
    client.auth.token = bob.token;
    const room = await client.joinOrCreate('area_village');
    const log = new EventLog(room);
    const view = await log.waitFor((e) => e.type === 'room.look');
    expect(view.data.room).toMatchObject({ players: expect.arrayContaining([looked.body.player.name]) });

    const channel = await ChannelClient.open(server.url, ann.userId, ann.token);
    await channel.waitFor((f) => f.type === 'result');
    await room.request('say', { text: 'across processes' });
    const bobName = `Traveller-${bob.userId.slice(-6)}`;
    await channel.waitFor(
      (f) => f.type === 'event' && f.event.text === `${bobName} says: "across processes"`,
    );
    await channel.close();

    const moved = await act(server.url, ann, { direction: 'east' }, '/mud/move').expect(200);
    expect(textsOf(moved.body.events).at(-1)).toMatch(/^Market Row\n/);
    await log.waitFor((e) => e.text === `${looked.body.player.name} leaves east.`);
    const spawns = await request(server.url).get('/mud/spawns/status').expect(200);
    expect(spawns.body.areas.find((a: { area_id: string }) => a.area_id === 'village')).toMatchObject({
      running: true,
      live: 5,
    });
    await room.leave();
  }, 120_000);
});
