import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../../../platform/clock';
import {
  MemoryNonceStore,
  RedisNonceStore,
  type NonceStore,
} from '../../../../services/auth/wallet/nonceStore';

const redis = new Redis('redis://127.0.0.1:6379');
afterAll(() => redis.quit());

describe.each([
  ['memory', () => ({ store: new MemoryNonceStore(new ManualClock()) as NonceStore })],
  ['redis', () => ({ store: new RedisNonceStore(redis, `test:${randomUUID()}:`) as NonceStore })],
])('%s nonce store', (_name, make) => {
  it('consumes an issued nonce exactly once', async () => {
    const { store } = make();
    await store.issue('abc12345', 300);
    expect(await store.consume('abc12345')).toBe('consumed');
    expect(await store.consume('abc12345')).toBe('replayed');
  });

  it('knows nothing of a nonce it never issued', async () => {
    const { store } = make();
    expect(await store.consume('deadbeef00')).toBe('unknown');
  });

  it('lets exactly one of many concurrent consumers win', async () => {
    const { store } = make();
    await store.issue('race0001', 300);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.consume('race0001')));
    expect(results.filter((r) => r === 'consumed')).toHaveLength(1);
    expect(results.filter((r) => r === 'replayed')).toHaveLength(19);
  });
});

describe('nonce expiry', () => {
  it('forgets a nonce after its TTL (memory, manual clock)', async () => {
    const clock = new ManualClock();
    const store = new MemoryNonceStore(clock);
    await store.issue('expiring', 300);
    clock.advance(299_000);
    await store.issue('other000', 300);
    clock.advance(1_000);
    expect(await store.consume('expiring')).toBe('unknown');
    expect(await store.consume('other000')).toBe('consumed');
  });

  it('lets Redis expire a nonce after its TTL', async () => {
    const prefix = `test:${randomUUID()}:`;
    const store = new RedisNonceStore(redis, prefix);
    await store.issue('expiring', 300);
    expect(await redis.ttl(`${prefix}expiring`)).toBe(300);
    await redis.pexpire(`${prefix}expiring`, 1);
    await redis.del(`${prefix}expiring`);
    expect(await store.consume('expiring')).toBe('unknown');
  });
});
