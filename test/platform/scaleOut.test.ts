import path from 'node:path';
import fs from 'node:fs';
import { Agenda, InMemoryNotificationChannel } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { MongoClient } from 'mongodb';
import { Redis } from 'ioredis';
import request from 'supertest';
import { BACKUP_JOB } from '../../platform/backup';
import { startCluster, type Cluster } from '../helpers/cluster';

/** The cluster's own Redis database (cleared at start): stale room listings of other runs would misroute calls. */
const REDIS_DB = 12;

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

/** The process id hosting each area room, from the Colyseus room listings in Redis. */
async function roomHosts(): Promise<Map<string, string>> {
  const redis = new Redis(`redis://127.0.0.1:6379/${REDIS_DB}`);
  try {
    const listings = await redis.hgetall('roomcaches');
    return new Map(
      Object.entries(listings).map(([roomId, json]) => [
        roomId,
        (JSON.parse(json) as { processId: string }).processId,
      ]),
    );
  } finally {
    redis.disconnect();
  }
}

/** The Colyseus process id a game process logged in its "game ready" line. */
function gameProcessId(stdout: string[]): string | undefined {
  for (const line of stdout) {
    const parsed = JSON.parse(line) as { msg?: string; processId?: string };
    if (parsed.msg === 'game ready') return parsed.processId;
  }
  return undefined;
}

describe('the platform split into processes connected by URL', () => {
  let cluster: Cluster;
  let api: string;

  beforeAll(async () => {
    cluster = await startCluster(REDIS_DB);
    // The first process creates the collections and indexes; areas started at the same moment race on creating
    // them (a Qdrant 409 stops start-up), so the others start once it listens.
    await cluster.start('api-1', 'api');
    await Promise.all([
      cluster.start('game-1', 'game'),
      cluster.start('game-2', 'game'),
      cluster.start('worker-1', 'worker'),
      cluster.start('worker-2', 'worker'),
    ]);
    api = cluster.processes.get('api-1')!.url;
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
    // The api process hosts no room: both rooms live on game processes, one each (least-loaded placement).
    expect(new Set(hosts.values()).size).toBe(2);
  });

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
    await cluster.start(name, 'game');
    const look = await eventually(async () => {
      const res = await act(cara, { action: 'look' });
      return res.status === 200 ? res : undefined;
    }, 60_000);
    expect(look.body.room).toBe('forest:edge');
  });
});
