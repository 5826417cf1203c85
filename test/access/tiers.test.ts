import { tierName, tierOf } from '../../access/tiers';

const at = new Date('2026-01-01T00:00:00Z');
const wallet = { kind: 'wallet' as const, verifiedAt: at };
const email = { kind: 'email' as const, verifiedAt: at };

describe('identity tiers', () => {
  it.each([
    ['nothing', [], 0, 'Anonymous'],
    ['an unverified email', [{ ...email, verifiedAt: null }], 0, 'Anonymous'],
    ['a verified email', [email], 1, 'Registered'],
    ['an SSO identity', [{ kind: 'oidc' as const, verifiedAt: at }], 1, 'Registered'],
    ['a wallet', [wallet], 2, 'Verified'],
    ['a wallet with ENS but nothing else', [{ ...wallet, ensName: 'a.eth' }], 2, 'Verified'],
    ['a wallet and a verified email', [wallet, email], 3, 'Trusted'],
    ['a wallet with ENS and a verified email', [{ ...wallet, ensName: 'a.eth' }, email], 4, 'Sovereign'],
  ])('%s earns tier %d (%s)', (_label, identities, tier, name) => {
    expect(tierOf(identities)).toBe(tier);
    expect(tierName(tier)).toBe(name);
  });
});
