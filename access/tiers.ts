import type { IdentityRecord } from '../models/Identity';

/**
 * Identity tiers, from Anonymous (0) to Sovereign (4). Each tier adds an independent proof of who the user is:
 *
 * | tier | name       | reached when the user holds                                               |
 * |------|------------|---------------------------------------------------------------------------|
 * | 0    | Anonymous  | no session                                                                |
 * | 1    | Registered | a verified email or an SSO identity                                       |
 * | 2    | Verified   | a wallet proven by a SIWE signature (on-chain identity)                   |
 * | 3    | Trusted    | a wallet plus a verified email or SSO identity (two independent factors)  |
 * | 4    | Sovereign  | tier 3, and the wallet's ENS name resolves back to it (public on-chain name) |
 */
export const TIER_NAMES = ['Anonymous', 'Registered', 'Verified', 'Trusted', 'Sovereign'] as const;
export type TierName = (typeof TIER_NAMES)[number];

type TierInput = Pick<IdentityRecord, 'kind' | 'verifiedAt' | 'ensName'>;

/** The tier a set of identities earns; unverified identities count for nothing. */
export function tierOf(identities: TierInput[]): number {
  const proven = identities.filter((identity) => identity.verifiedAt !== null);
  const wallets = proven.filter((identity) => identity.kind === 'wallet');
  const offChain = proven.some((identity) => identity.kind === 'email' || identity.kind === 'oidc');
  if (wallets.length === 0) return offChain ? 1 : 0;
  if (!offChain) return 2;
  return wallets.some((wallet) => Boolean(wallet.ensName)) ? 4 : 3;
}

export function tierName(tier: number): TierName {
  return TIER_NAMES[tier] ?? 'Anonymous';
}
