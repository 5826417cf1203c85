import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { createLimiter } from '../../../../platform/http/rateLimit';
import { siweReplaysOverCap } from '../../../../platform/metrics';
import { ReplayMonitor } from '../../../../services/auth/wallet/replayMonitor';
import { captureLogs } from '../../../helpers/logCapture';

const redis = new Redis('redis://127.0.0.1:6379');
afterAll(() => redis.quit());

const overCap = async () => (await siweReplaysOverCap.get()).values[0]?.value ?? 0;

describe('replay monitor', () => {
  it('shares one replay window between processes through Redis', async () => {
    // Two monitors on one Redis key space stand for two API processes.
    const keyPrefix = `test:${randomUUID()}:`;
    const window = () => createLimiter({ redis, keyPrefix, points: 2, durationSeconds: 60 });
    const logs = captureLogs();
    const first = new ReplayMonitor(window(), logs.logger);
    const second = new ReplayMonitor(window(), logs.logger);
    const before = await overCap();

    await first.record({ address: '0x1', nonce: 'aaaaaaaa' });
    await second.record({ address: '0x2', nonce: 'bbbbbbbb' });
    expect(await overCap()).toBe(before);
    expect(logs.lines).toEqual([]);

    await first.record({ address: '0x3', nonce: 'cccccccc' });
    expect(await overCap()).toBe(before + 1);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        msg: 'SIWE replay cap exceeded',
        address: '0x3',
        replaysInWindow: 3,
        cap: 2,
        windowSeconds: 60,
      }),
    ]);
  });
});
