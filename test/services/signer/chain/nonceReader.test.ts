import { ManualClock } from '../../../../platform/clock';
import type { NonceSource } from '../../../../services/signer/chain/chainContracts';
import { NonceReader } from '../../../../services/signer/chain/nonceReader';

const ALICE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BOB = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

/** A NonceSource over a mutable map that counts chain reads. */
class FakeNonceSource implements NonceSource {
  readonly nonces = new Map<string, bigint>();
  reads = 0;
  pending: (() => void)[] = [];
  holdReads = false;

  async getNonce(user: string): Promise<bigint> {
    this.reads += 1;
    if (this.holdReads) await new Promise<void>((release) => this.pending.push(release));
    return this.nonces.get(user.toLowerCase()) ?? 0n;
  }
}

function buildReader(overrides: { ttlMs?: number; maxEntries?: number } = {}) {
  const source = new FakeNonceSource();
  const clock = new ManualClock();
  const reader = new NonceReader({ source, clock, ...overrides });
  return { source, clock, reader };
}

describe('NonceReader', () => {
  it('reuses a nonce for under the TTL (default 4 s) and reads the chain again after it', async () => {
    const { source, clock, reader } = buildReader();
    source.nonces.set(ALICE.toLowerCase(), 3n);
    expect(await reader.read(ALICE)).toBe(3n);
    source.nonces.set(ALICE.toLowerCase(), 4n);
    clock.advance(3999);
    expect([await reader.read(ALICE), source.reads]).toEqual([3n, 1]);
    clock.advance(1);
    expect([await reader.read(ALICE), source.reads]).toEqual([4n, 2]);
  });

  it('keys the cache by address case-insensitively and per address', async () => {
    const { source, reader } = buildReader();
    source.nonces.set(BOB.toLowerCase(), 9n);
    await reader.read(ALICE);
    expect([await reader.read(ALICE.toLowerCase()), await reader.read(BOB), source.reads]).toEqual([
      0n,
      9n,
      2,
    ]);
  });

  it('reads the chain again after invalidate(address)', async () => {
    const { source, reader } = buildReader();
    await reader.read(ALICE);
    source.nonces.set(ALICE.toLowerCase(), 1n);
    reader.invalidate(ALICE.toUpperCase().replace('0X', '0x'));
    expect([await reader.read(ALICE), source.reads]).toEqual([1n, 2]);
  });

  it('shares one chain read between concurrent requests, and does not cache a read invalidated mid-flight', async () => {
    const { source, reader } = buildReader();
    source.holdReads = true;
    const first = reader.read(ALICE);
    const second = reader.read(ALICE);
    expect(source.reads).toBe(1);
    reader.invalidate(ALICE);
    source.pending.splice(0).forEach((release) => release());
    expect([await first, await second]).toEqual([0n, 0n]);

    source.holdReads = false;
    source.nonces.set(ALICE.toLowerCase(), 5n);
    expect([await reader.read(ALICE), source.reads]).toEqual([5n, 2]);
  });

  it('does not cache a failed read', async () => {
    const { source, reader } = buildReader();
    source.getNonce = async () => {
      source.reads += 1;
      throw new Error('rpc down');
    };
    await expect(reader.read(ALICE)).rejects.toThrow('rpc down');
    await expect(reader.read(ALICE)).rejects.toThrow('rpc down');
    expect([source.reads, reader.size]).toEqual([2, 0]);
  });

  it('bounds the cache, sweeping expired entries first', async () => {
    const { source, clock, reader } = buildReader({ maxEntries: 2 });
    await reader.read(BOB);
    clock.advance(4000);
    await reader.read(ALICE);
    await reader.read('0x0000000000000000000000000000000000000001');
    expect(reader.size).toBe(2);
    await reader.read(ALICE);
    expect(source.reads).toBe(3);
  });

  it('refuses a TTL of 5 s or more (SPEC 4.10: cache only under 5 seconds)', () => {
    expect(() => buildReader({ ttlMs: 5000 })).toThrow(
      new RangeError('nonce cache TTL must be 0..4999 ms, got 5000'),
    );
  });
});
