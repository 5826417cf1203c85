import { getAddress } from 'ethers';
import type { Accounts } from './accounts';
import type { EnsResolver } from './ensResolver';
import type { Principal } from '../../access/principal';
import { tierName } from '../../access/tiers';

/** Headers a reverse proxy copies from `GET /auth/forward` onto the upstream request. */
export interface ForwardHeaders {
  'X-Wallet-Address': string;
  'X-Wallet-ENS': string;
  'X-User-Id': string;
  'X-User-Tier': string;
  'X-User-Roles': string;
}

/**
 * The identity headers for a signed-in user: the session's wallet (or the user's first linked wallet), its ENS
 * name through the cached resolver (empty when none), and the user's id, tier and roles.
 */
export async function forwardHeaders(
  principal: Extract<Principal, { kind: 'user' }>,
  accounts: Accounts,
  ens: EnsResolver,
): Promise<ForwardHeaders> {
  let address = principal.address;
  if (!address) {
    const wallet = (await accounts.identitiesOf(principal.userId)).find(
      (identity) => identity.kind === 'wallet',
    );
    address = wallet ? getAddress(wallet.subject) : undefined;
  }
  const ensName = address ? await ens.nameOf(address) : null;
  return {
    'X-Wallet-Address': address ?? '',
    'X-Wallet-ENS': ensName ?? '',
    'X-User-Id': principal.userId.toHexString(),
    'X-User-Tier': `${principal.tier} ${tierName(principal.tier)}`,
    'X-User-Roles': principal.roles.join(','),
  };
}
