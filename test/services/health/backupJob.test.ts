import fs from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { BACKUP_JOB } from '../../../platform/backup';
import { runBackupCli } from '../../../services/health/backupCli';
import { startTestPlatform, TEST_ENV, type TestPlatform } from '../../helpers/platform';

/** Polls `probe` every 20 ms until it returns true; fails after `timeoutMs`. */
async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the nightly backup job', () => {
  let server: TestPlatform;
  const backupsDir = () => path.join(server.config.DATA_DIR, 'backups');
  const snapshots = async () =>
    (await fs.readdir(backupsDir()).catch(() => [])).filter((n) => !n.endsWith('.partial'));

  beforeAll(async () => {
    server = await startTestPlatform({ BACKUP_CRON: '0 3 * * *' });
  });
  afterAll(() => server.stop());

  it('is scheduled on BACKUP_CRON', async () => {
    const job = await server.platform.stores.mongo.collection('agendaJobs').findOne({ name: BACKUP_JOB });
    expect(job).toMatchObject({ name: BACKUP_JOB, repeatInterval: '0 3 * * *' });
  });

  it('runs on a worker, writes a snapshot under DATA_DIR/backups and records its time in /metrics', async () => {
    await server.platform.stores.mongo.collection('marks').insertOne({ mark: 'before the backup' });
    await server.platform.scheduler.agenda.now(BACKUP_JOB);
    await waitUntil(async () => (await snapshots()).length === 1);
    const [id] = await snapshots();
    const manifest = JSON.parse(await fs.readFile(path.join(backupsDir(), id, 'manifest.json'), 'utf8'));
    expect(manifest.mongo.collections).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'marks', documents: 1 })]),
    );
    const metrics = await request(server.url).get('/metrics');
    const recorded = /^platform_backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics.text);
    expect(Number(recorded?.[1])).toBeGreaterThan(Date.UTC(2026, 0, 1) / 1000);
  });

  it('cannot be taken by hand while the server holds the embedded engines, and says why', async () => {
    const printed: string[] = [];
    const status = await runBackupCli(['backup'], {
      env: { ...TEST_ENV, DATA_DIR: server.config.DATA_DIR, LOG_LEVEL: 'silent' },
      print: (line) => printed.push(line),
    });
    expect(status).toBe(1);
    expect(printed[0]).toMatch(/^backup failed: data directory .*mongo is in use by process \d+/);
  });
});
