import { z } from 'zod';
import request from 'supertest';
import type { Agenda } from 'agenda';
import type { ApiRoutes } from '../../platform/http/routes';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

const pingService = (routes: ApiRoutes) =>
  routes.add({
    method: 'get',
    path: '/ping',
    summary: 'ping',
    tags: ['test'],
    responses: { 200: { description: 'pong', schema: z.object({ pong: z.boolean() }) } },
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

  it('worker role runs the jobs product parts define', async () => {
    const ran: unknown[] = [];
    const jobs = [
      (agenda: Agenda) => {
        // After a job ends Agenda keeps a lock-check timer of max(processEvery, lockLifetime) / 2 alive; short
        // values let jest exit promptly.
        agenda.processEvery(500);
        agenda.define<{ n: number }>('record-run', async (job) => void ran.push(job.attrs.data), {
          lockLifetime: 1000,
        });
      },
    ];
    server = await startTestPlatform({ ROLES: 'worker' }, { services: [pingService], jobs });
    const { agenda } = server.platform.scheduler;
    const completed = new Promise((resolve) => agenda.once('complete:record-run', resolve));
    await agenda.now('record-run', { n: 1 });
    await completed;
    expect(ran).toEqual([{ n: 1 }]);
  });

  it('api role schedules jobs without processing them', async () => {
    server = await startTestPlatform({ ROLES: 'api' });
    const { agenda } = server.platform.scheduler;
    agenda.define('record-run', async () => undefined);
    await agenda.now('record-run', { n: 2 });
    const stored = await server.platform.stores.mongo
      .collection('agendaJobs')
      .findOne({ name: 'record-run' });
    expect(stored).toMatchObject({ name: 'record-run', data: { n: 2 }, nextRunAt: expect.any(Date) });
    expect(stored?.lockedAt ?? null).toBeNull();
    expect(stored?.lastRunAt ?? null).toBeNull();
  });

  it('worker role still answers health probes', async () => {
    server = await startTestPlatform({ ROLES: 'worker' }, { services: [pingService] });
    expect((await request(server.url).get('/healthz')).status).toBe(200);
    expect((await request(server.url).get('/ping')).status).toBe(404);
    expect(server.platform.game).toBeUndefined();
  });
});
