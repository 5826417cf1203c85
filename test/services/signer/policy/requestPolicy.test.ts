import { memoryBalances } from '../../../helpers/signerFixtures';
import { ManualClock } from '../../../../platform/clock';
import type { AppError } from '../../../../platform/errors';
import { SignatureRequestPolicy } from '../../../../services/signer/policy/requestPolicy';

const ALICE = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BOB = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

function buildPolicy(overrides: { forgeCooldownMs?: number; balances?: Record<string, bigint> } = {}) {
  const clock = new ManualClock();
  const balances = overrides.balances ?? { [ALICE]: 1000n };
  const policy = new SignatureRequestPolicy({
    balances: memoryBalances(balances),
    forgeCooldownMs: overrides.forgeCooldownMs,
    clock,
  });
  return { clock, policy };
}

async function problem(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (caught: unknown) => caught,
  )) as AppError;
  return { status: error.status, code: error.code, message: error.message, headers: error.headers };
}

describe('SignatureRequestPolicy', () => {
  it('admits 10 signature requests per minute per address, then answers 429 with Retry-After', async () => {
    const { clock, policy } = buildPolicy();
    for (let i = 0; i < 10; i += 1) {
      await policy.admitRequest(ALICE);
      clock.advance(1000);
    }
    expect(await problem(policy.admitRequest(ALICE.toLowerCase()))).toEqual({
      status: 429,
      code: 'SIGNER_RATE_LIMITED',
      message: 'At most 10 signature requests per 60 s per address',
      headers: { 'Retry-After': '50' },
    });
    await policy.admitRequest(BOB);
    clock.advance(50_000);
    await expect(policy.admitRequest(ALICE)).resolves.toBeUndefined();
  });

  it('requires the soft-currency balance to cover zenCommitted (409 otherwise)', async () => {
    const { policy } = buildPolicy();
    await expect(policy.requireBalance(ALICE, 1000n)).resolves.toBeUndefined();
    expect(await problem(policy.requireBalance(ALICE, 1001n))).toMatchObject({
      status: 409,
      code: 'SIGNER_INSUFFICIENT_BALANCE',
      message: 'Balance 1000 is below the 1001 committed',
    });
  });

  it('enforces the forge cooldown (default 60 s) from the last issued start signature', async () => {
    const { clock, policy } = buildPolicy();
    expect(await policy.withForgeCooldown(ALICE, async () => 'signed')).toBe('signed');
    clock.advance(59_000);
    expect(await problem(policy.withForgeCooldown(ALICE, async () => 'signed'))).toEqual({
      status: 429,
      code: 'SIGNER_FORGE_COOLDOWN',
      message: 'Forge cooldown in effect for this forger',
      headers: { 'Retry-After': '1' },
    });
    expect(await policy.withForgeCooldown(BOB, async () => 'other forger')).toBe('other forger');
    clock.advance(1000);
    expect(await policy.withForgeCooldown(ALICE, async () => 'again')).toBe('again');
  });

  it('takes the cooldown back when signing fails', async () => {
    const { policy } = buildPolicy();
    await expect(
      policy.withForgeCooldown(ALICE, async () => {
        throw new Error('rpc down');
      }),
    ).rejects.toThrow('rpc down');
    expect(await policy.withForgeCooldown(ALICE, async () => 'signed')).toBe('signed');
  });

  it('disables the cooldown with forgeCooldownMs 0', async () => {
    const { policy } = buildPolicy({ forgeCooldownMs: 0 });
    await policy.withForgeCooldown(ALICE, async () => 'first');
    expect(await policy.withForgeCooldown(ALICE, async () => 'second')).toBe('second');
  });
});
