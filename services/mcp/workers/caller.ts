import { z } from 'zod';
import { UnauthorizedError } from '../../../platform/errors';
import type { Principal } from '../../../access/principal';

/**
 * The caller's user id, for tools acting as a signed-in user. Their access (`ACCESS.player`, `registeredPlayer`,
 * `admin`, a role) already keeps the service token out; this is the handler's own guard.
 */
export function callerUserId(caller: Principal): string {
  if (caller.kind !== 'user') throw new UnauthorizedError('Sign in first');
  return caller.userId.toHexString();
}

/** A 24-hex-digit id (users, posts). */
export const hexId = (what: string) =>
  z.string().regex(/^[0-9a-f]{24}$/, { error: `expected a ${what} id (24 hex digits)` });

/** A page size: 1 to `max`, `fallback` when absent. */
export const pageLimit = (max: number, fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(max)
    .default(fallback)
    .meta({ description: `How many (1-${max}, default ${fallback})` });
