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

/** Shards of each busy platform account (see `systemAccount`). */
export const SYSTEM_SHARDS = 32;

/**
 * The platform account a leg uses: every world save that earns or spends coins, every grant, forge and sale fee
 * touches the issuer, burn or fee account, so one document each would serialise all of them on one compare-and-set
 * (hundreds of new characters joining at once ran out of rounds: 503 ECONOMY_BUSY). Their legs are spread over
 * `SYSTEM_SHARDS` accounts `<base>.<n>`, picked by the operation's id, and the audit sums them. Hard-currency legs on
 * the issuer stay on the one account: its balance is what is left under the supply cap, which must be one number.
 */
export function systemAccount(base: string, currency: 'soft' | 'hard', operationId: string): string {
  if (base === SYSTEM_ACCOUNTS.issuer && currency === 'hard') return base;
  return `${base}.${fnv1a(operationId) % SYSTEM_SHARDS}`;
}

/** Whether `id` is the platform account `base` or one of its shards. */
export function isSystemAccount(id: string, base: string): boolean {
  return id === base || id.startsWith(`${base}.`);
}

/** 32-bit FNV-1a of a string (spreads operation ids over shards; not a security hash). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

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
