import type { AccountOwnerKind } from '../../models/EconomyAccount';

/** Hard-currency supply cap in the smallest unit (SPEC 1: 21,000,000; the hard currency has no subunits). */
export const HARD_SUPPLY_CAP = 21_000_000;

/**
 * The platform's own accounts. `issuer` is where every coin comes from: its soft balance goes negative by what was
 * issued, its hard balance starts at the cap (a `genesis` line), so hard grants are debits that cannot overdraw it.
 * `burn` receives what leaves circulation (world spending, consumed forge holds), `decay` the monthly decay,
 * `fees` the marketplace's 5%.
 */
export const SYSTEM_ACCOUNTS = {
  issuer: 'system:issuer',
  burn: 'system:burn',
  decay: 'system:decay',
  fees: 'system:fees',
} as const;

/** The account of platform user `userId`. */
export const userAccount = (userId: string) => `user:${userId}`;

/** The account of a wallet address no user has linked (lowercase). */
export const addressAccount = (address: string) => `address:${address.toLowerCase()}`;

/** Whose account `id` is, from its prefix. */
export function ownerOf(id: string): AccountOwnerKind {
  if (id.startsWith('user:')) return 'user';
  if (id.startsWith('address:')) return 'address';
  return 'system';
}

/** The user id of a `user:` account, else undefined. */
export function userIdOf(id: string): string | undefined {
  return id.startsWith('user:') ? id.slice(5) : undefined;
}
