import path from 'node:path';
import fs from 'node:fs';
import { Client } from '@colyseus/sdk';
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { MongoClient } from 'mongodb';
import { Wallet } from 'ethers';
import request from 'supertest';
import { BACKUP_JOB } from '../../platform/backup';
import type { ServerFrame } from '../../services/mud/playerSocket';
import { startCluster, type Cluster } from '../helpers/cluster';
import { gameProcessId, roomHosts as roomHostsIn } from '../helpers/clusterWorld';
import { EventLog } from '../helpers/gameServer';
import { buildSiweMessage } from '../helpers/siwe';
import { ChannelClient } from '../services/mud/worldPlatform';

/** The cluster's own Redis database (cleared at start): stale room listings of other runs would misroute calls. */
const REDIS_DB = 12;
const roomHosts = () => roomHostsIn(REDIS_DB);

/**
 * The gateway limit per client and second: the default, where the cluster helper otherwise lifts it. The tests' own
 * traffic (some 20 requests a second at most, from 127.0.0.1) stays below it; the bursts come from addresses of
 * their own through `X-Forwarded-For`, trusted from loopback (TRUST_PROXY) as it would be behind a proxy.
 */
const GATEWAY_LIMIT = 50;
/** Each game process hosts one of the two areas the tests play in (GAME_HOSTS_ROOMS), so they are on two processes. */
const PINS: Record<string, Record<string, string>> = {
  'game-1': { GAME_HOSTS_ROOMS: 'area_village' },
  'game-2': { GAME_HOSTS_ROOMS: 'area_forest' },
};
const CLUSTER_ENV = {
  GATEWAY_RATE_LIMIT_PER_SECOND: String(GATEWAY_LIMIT),
  TRUST_PROXY: 'loopback',
  SIWE_ENABLED: '1',
  SIWE_DOMAIN: 'localhost',
};

/** Polls `probe` every 100 ms until it returns a value; fails after `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the platform split into processes connected by URL', () => {
  let cluster: Cluster;
  let api: string;
  let api2: string;

  beforeAll(async () => {
    cluster = await startCluster(REDIS_DB, CLUSTER_ENV);
    // The first process creates the collections and indexes; areas started at the same moment race on creating
    // them (a Qdrant 409 stops start-up), so the others start once it listens.
    await cluster.start('api-1', 'api');
    await Promise.all([
      cluster.start('api-2', 'api'),
      cluster.start('game-1', 'game', PINS['game-1']),
      cluster.start('game-2', 'game', PINS['game-2']),
      cluster.start('worker-1', 'worker'),
      cluster.start('worker-2', 'worker'),
    ]);
    api = cluster.processes.get('api-1')!.url;
    api2 = cluster.processes.get('api-2')!.url;
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  const guest = async () =>
    (await request(api).post('/auth/guest').send({}).expect(201)).body.token as string;
  const act = (token: string, body: object) =>
    request(api).post('/mud/action').set('Authorization', `Bearer ${token}`).send(body);

  it('serves REST players through the api process in area rooms the game processes host', async () => {
    const [ann, bob] = [await guest(), await guest()];
    expect((await act(ann, { action: 'look' }).expect(200)).body.room).toBe('village:square');
    for (const direction of ['east', 'east', 'east'])
      await act(bob, { action: 'move', direction }).expect(200);
    expect((await act(bob, { action: 'look' }).expect(200)).body.room).toBe('forest:edge');
    const hosts = await roomHosts();
    expect([...hosts.keys()].sort()).toEqual(['area_forest', 'area_village']);
    // The api process hosts no room: each lives on the game process that pinned it (GAME_HOSTS_ROOMS).
    const processIdOf = (name: string) => gameProcessId(cluster.processes.get(name)!.server.stdout);
    expect(hosts.get('area_village')).toBe(processIdOf('game-1'));
    expect(hosts.get('area_forest')).toBe(processIdOf('game-2'));
  });

  it('counts one client on both api processes against one gateway budget (Redis)', async () => {
    const half = 40; // each half alone is within the limit, the two together are not
    const burst = async (client: string, urls: string[]) => {
      const started = Date.now();
      const responses = await Promise.all(
        urls.flatMap((url) =>
          Array.from({ length: half }, () =>
            request(url).get('/scale-out/no-such-route').set('X-Forwarded-For', client),
          ),
        ),
      );
      return { responses, withinOneWindow: Date.now() - started < 1000 };
    };
    const refusedIn = (responses: request.Response[]) => responses.filter((res) => res.status === 429);
    expect(refusedIn((await burst('203.0.113.1', [api])).responses)).toHaveLength(0);
    expect(refusedIn((await burst('203.0.113.2', [api2])).responses)).toHaveLength(0);
    // The split burst must fit one 1-second window to be counted exactly; one slowed by the machine's load is
    // sent again, from a fresh address.
    let split = await burst('203.0.113.3', [api, api2]);
    for (let retry = 4; !split.withinOneWindow && retry < 7; retry++)
      split = await burst(`203.0.113.${retry}`, [api, api2]);
    expect(split.withinOneWindow).toBe(true);
    const refused = refusedIn(split.responses);
    // 2 × 40 requests: 50 answered (404, no such route), 30 refused, though neither process saw more than 40.
    expect([split.responses.length - refused.length, refused.length]).toEqual([
      GATEWAY_LIMIT,
      2 * half - GATEWAY_LIMIT,
    ]);
    expect(refused[0]!.body.code).toBe('RATE_LIMITED');
  });

  it('verifies a SIWE nonce issued by one api process on the other, once', async () => {
    const wallet = Wallet.createRandom();
    const { nonce } = (await request(api).post('/auth/wallet/nonce').expect(201)).body as { nonce: string };
    const message = buildSiweMessage(wallet, nonce);
    const proof = { address: wallet.address, signature: await wallet.signMessage(message), nonce, message };
    const verified = await request(api2).post('/auth/wallet/verify').send(proof).expect(202);
    const replay = await request(api).post('/auth/wallet/verify').send(proof);
    expect([replay.status, replay.body.code]).toEqual([401, 'SIWE_NONCE_REPLAYED']);
    // The session api-2 issued works on api-1.
    const me = await request(api).get('/auth/me').set('Authorization', `Bearer ${verified.body.token}`);
    expect(me.status).toBe(200);
  });

  it('lets WebSocket and SDK players chat in areas on both game processes and hand off between them', async () => {
    const [ann, bob] = [await guest(), await guest()];
    const annId = (await request(api2).get('/auth/me').set('Authorization', `Bearer ${ann}`).expect(200)).body
      .id as string;
    // Ann: the plain WebSocket channel through api-2. Bob: the SDK, matchmaking at game-1.
    const channel = await ChannelClient.open(api2, annId, ann);
    let joined: { leave(): Promise<unknown> } | undefined; // Bob's current room (a left room never settles leave)
    try {
      const opened = await channel.waitFor((f) => f.type === 'result');
      expect(opened.type === 'result' && opened.result.room).toBe('village:square');
      const annName = opened.type === 'result' ? opened.result.player.name : '';
      // Plain SDK client: the seat reservations name the hosting game process's public address.
      const client = new Client(cluster.processes.get('game-1')!.url);
      client.auth.token = bob;
      const village = await client.joinOrCreate('area_village');
      joined = village;
      const villageLog = new EventLog(village);
      await villageLog.waitFor((e) => e.type === 'room.look');
      const hosts = await roomHosts();

      const heard = (text: string) => (f: ServerFrame) =>
        f.type === 'event' && f.event.text.endsWith(` says: "${text}"`);
      channel.send({ action: 'say', text: 'hello from a socket', id: 's1' });
      await villageLog.waitFor((e) => e.text === `${annName} says: "hello from a socket"`, 10_000);
      village.send('say', { text: 'hello from the SDK' });
      await channel.waitFor(heard('hello from the SDK'), 10_000);

      // Bob walks into the forest: the village's process reserves him a seat on the forest's process.
      for (const direction of ['east', 'east', 'east']) await village.request('move', { direction });
      const handoff = await villageLog.waitFor((e) => e.type === 'area.handoff', 10_000);
      const reservation = handoff.data.reservation as { processId: string; roomId: string };
      expect(reservation.roomId).toBe('area_forest');
      expect(reservation.processId).toBe(hosts.get('area_forest'));
      expect(reservation.processId).not.toBe(hosts.get('area_village'));
      const forest = await client.consumeSeatReservation(reservation as never);
      const forestLog = new EventLog(forest);
      await village.leave();
      joined = forest;
      expect((await forestLog.waitFor((e) => e.type === 'room.look')).text.split('\n')[0]).toBe(
        'Forest Edge',
      );

      // Ann follows over the channel (the api moves her to the forest's room) and the two talk there.
      for (const [i, direction] of ['east', 'east', 'east'].entries())
        channel.send({ action: 'move', direction, id: `m${i}` });
      const moved = await channel.waitFor((f) => f.type === 'result' && f.id === 'm2', 10_000);
      expect(moved.type === 'result' && [moved.result.room, moved.result.handoff?.area_id]).toEqual([
        'forest:edge',
        'forest',
      ]);
      channel.send({ action: 'say', text: 'made it', id: 's2' });
      await forestLog.waitFor((e) => e.text === `${annName} says: "made it"`, 10_000);
      forest.send('say', { text: 'welcome' });
      await channel.waitFor(heard('welcome'), 10_000);
    } finally {
      await channel.close();
      // A room whose socket already failed may never settle leave(): wait 5 s at most.
      await Promise.race([
        joined?.leave().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 5000).unref()),
      ]);
    }
  }, 60_000);

  it('runs an Agenda job exactly once across the two worker processes', async () => {
    const client = await MongoClient.connect(cluster.mongoUri);
    const agenda = new Agenda({
      backend: new MongoBackend({ mongo: client.db('cluster') }),
      notificationChannel: new InMemoryNotificationChannel(),
    });
    try {
      await agenda.ready;
      await agenda.now(BACKUP_JOB);
      const finished = await eventually(async () => {
        const job = await client
          .db('cluster')
          .collection('agendaJobs')
          .findOne({ name: BACKUP_JOB, lastFinishedAt: { $ne: null }, repeatInterval: null });
        return job ?? undefined;
      });
      expect(finished.nextRunAt ?? null).toBeNull();
    } finally {
      await agenda.stop();
      await client.close();
    }
    const snapshotsOf = (worker: string) => {
      const dir = path.join(cluster.dir, worker, 'backups');
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };
    expect(snapshotsOf('worker-1').length + snapshotsOf('worker-2').length).toBe(1);
  });

  it('loses no acknowledged move when a game process is killed, and the player plays on once it restarts', async () => {
    const cara = await guest();
    for (const direction of ['east', 'east', 'east'])
      await act(cara, { action: 'move', direction }).expect(200);
    const forestHost = (await roomHosts()).get('area_forest');
    const victim = [...cluster.processes.values()].find(
      (entry) => entry.role === 'game' && gameProcessId(entry.server.stdout) === forestHost,
    );
    expect(victim).toBeDefined();
    const name = victim!.name;
    await cluster.kill(name);
    // The village, hosted by the other game process, keeps serving while the forest's process is down.
    const ann = await guest();
    expect((await act(ann, { action: 'look' }).expect(200)).body.room).toBe('village:square');
    // Restarted with its pin: the forest is created on it again, under its new process id.
    const restarted = await cluster.start(name, 'game', PINS[name]);
    const look = await eventually(async () => {
      const res = await act(cara, { action: 'look' });
      return res.status === 200 ? res : undefined;
    }, 60_000);
    expect(look.body.room).toBe('forest:edge');
    expect((await roomHosts()).get('area_forest')).toBe(gameProcessId(restarted.server.stdout));
  });
});
