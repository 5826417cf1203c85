import {
  SYSTEM_ACCOUNTS,
  SYSTEM_SHARDS,
  isSystemAccount,
  systemAccount,
} from '../../../services/economy/accountIds';

describe('platform account shards', () => {
  it('spreads soft legs of the issuer, burn and fee accounts over their shards by operation id', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `world:user-${i}:1`);
    const used = new Set(ids.map((id) => systemAccount(SYSTEM_ACCOUNTS.issuer, 'soft', id)));
    expect(used.size).toBe(SYSTEM_SHARDS);
    expect([...used].every((id) => isSystemAccount(id, SYSTEM_ACCOUNTS.issuer))).toBe(true);
    // The same operation always lands on the same shard (a replay or recovery applies the same legs).
    expect(systemAccount(SYSTEM_ACCOUNTS.burn, 'soft', 'world:a:2')).toBe(
      systemAccount(SYSTEM_ACCOUNTS.burn, 'soft', 'world:a:2'),
    );
    expect(systemAccount(SYSTEM_ACCOUNTS.fees, 'hard', 'purchase:x')).toMatch(/^system:fees\.\d+$/);
  });

  it('keeps hard-currency legs of the issuer on the one account that holds what is left under the cap', () => {
    expect(systemAccount(SYSTEM_ACCOUNTS.issuer, 'hard', 'grant:k')).toBe(SYSTEM_ACCOUNTS.issuer);
    expect(isSystemAccount('system:issuer', SYSTEM_ACCOUNTS.issuer)).toBe(true);
    expect(isSystemAccount('system:issuerx', SYSTEM_ACCOUNTS.issuer)).toBe(false);
  });
});
