import { Agenda } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { startMongoTarget, type MongoTarget } from './mongoTarget';

let target: MongoTarget;
let agenda: Agenda;

beforeAll(async () => {
  target = await startMongoTarget();
  agenda = new Agenda({ backend: new MongoBackend({ mongo: target.db }), processEvery: 50 });
});
afterAll(async () => {
  await agenda.stop();
  await target.close();
});

it('schedules a job, runs it and records its completion', async () => {
  const ran: unknown[] = [];
  // Agenda keeps a lock-check timer of lockLifetime/2 alive after a job ends; a short lifetime lets jest exit.
  agenda.define<{ to: string }>(
    'send-welcome',
    async (job) => {
      ran.push(job.attrs.data);
    },
    { lockLifetime: 1000 },
  );
  const finished = new Promise<void>((resolve) => agenda.once('complete:send-welcome', () => resolve()));
  await agenda.start();
  await agenda.schedule(new Date(Date.now() - 1000), 'send-welcome', { to: 'ann@example.com' });
  await finished;

  expect(ran).toEqual([{ to: 'ann@example.com' }]);
  const stored = await target.db.collection('agendaJobs').findOne({ name: 'send-welcome' });
  expect(stored).toMatchObject({ name: 'send-welcome', data: { to: 'ann@example.com' } });
  expect(stored?.lastFinishedAt).toBeInstanceOf(Date);
  expect(stored?.lockedAt).toBeNull();
  const indexes = await target.db.collection('agendaJobs').listIndexes().toArray();
  expect(indexes.map((index) => index.name)).toContain('findAndLockNextJobIndex');
});
