import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startMongoEngine, type MongoEngine } from '../../../embedded/mongo';
import { ManualClock } from '../../../platform/clock';
import { BackupAlreadyRunningError, BackupGateTimeoutError, MongoBackupGate } from '../../../platform/backup';

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the backup gate (shared through MongoDB)', () => {
  let dir: string;
  let engine: MongoEngine;
  // Two connections stand for two processes (the backup worker and the consolidating worker).
  let backupProcess: Connection;
  let consolidationProcess: Connection;
  let clock: ManualClock;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-gate-'));
    engine = await startMongoEngine({ dir });
    backupProcess = await mongoose.createConnection(`${engine.uri}gate`).asPromise();
    consolidationProcess = await mongoose.createConnection(`${engine.uri}gate`).asPromise();
  });
  afterAll(async () => {
    await backupProcess.close();
    await consolidationProcess.close();
    await engine.close();
    await fs.rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    clock = new ManualClock();
    await backupProcess.collection('opsLeases').deleteMany({});
  });

  const gateOf = (connection: Connection, maxWaitMs = 10_000) =>
    new MongoBackupGate(connection, clock, { leaseMs: 60_000, pollMs: 5, maxWaitMs });

  it('lets waitForIdle through at once when no backup runs', async () => {
    await expect(gateOf(consolidationProcess).waitForIdle()).resolves.toBeUndefined();
    expect(await gateOf(consolidationProcess).isHeld()).toBe(false);
  });

  it('makes a waiter in another process wait until the backup finishes', async () => {
    const order: string[] = [];
    const backupMayFinish = deferred();
    const backupRunning = deferred();
    const backup = gateOf(backupProcess).hold('worker-1', async () => {
      backupRunning.resolve();
      await backupMayFinish.promise;
      order.push('backup finished');
    });
    await backupRunning.promise;
    expect(await gateOf(consolidationProcess).isHeld()).toBe(true);
    const consolidation = gateOf(consolidationProcess)
      .waitForIdle()
      .then(() => order.push('consolidation started'));
    // Let the waiter poll a few times while the backup still runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    backupMayFinish.resolve();
    await backup;
    await consolidation;
    expect(order).toEqual(['backup finished', 'consolidation started']);
    expect(await backupProcess.collection('opsLeases').countDocuments()).toBe(0);
  });

  it('refuses a second backup while one holds the gate', async () => {
    const release = deferred();
    const first = gateOf(backupProcess).hold('worker-1', () => release.promise);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(gateOf(consolidationProcess).hold('worker-2', async () => 'ran')).rejects.toEqual(
      new BackupAlreadyRunningError('worker-1'),
    );
    release.resolve();
    await first;
    await expect(gateOf(consolidationProcess).hold('worker-2', async () => 'ran')).resolves.toBe('ran');
  });

  it('releases the gate when the backup fails', async () => {
    await expect(
      gateOf(backupProcess).hold('worker-1', async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await gateOf(consolidationProcess).isHeld()).toBe(false);
  });

  it('lets a lease left by a killed backup lapse, so waiters and the next backup go on', async () => {
    // A backup process that died: its lease stays behind, never renewed.
    await backupProcess
      .collection('opsLeases')
      .insertOne({ _id: 'backup' as never, holder: 'dead-worker', expiresAt: clock.now() + 60_000 });
    const gate = gateOf(consolidationProcess, 30);
    await expect(gate.waitForIdle()).rejects.toBeInstanceOf(BackupGateTimeoutError);
    clock.advance(60_001);
    await expect(gate.waitForIdle()).resolves.toBeUndefined();
    await expect(gate.hold('worker-2', async () => 'ran')).resolves.toBe('ran');
  });
});
