import type { RequestHandler } from 'express';
import { holdsRole } from '../../models/User';
import { UnauthorizedError } from '../../platform/errors';
import { mcpHttpError } from './errors';
import type { AuthGuard } from '../../access/authGuard';
import type { Principal } from '../../access/principal';
import { tierName } from '../../access/tiers';
import type { ToolAccess } from './toolDefinition';

/**
 * Why `caller` may not call a tool with `access`, or undefined when it may. The reason is written for the agent
 * (it is the tool error's message): it names the tier, role or credential the tool needs.
 */
export function accessDenial(access: ToolAccess, caller: Principal): string | undefined {
  if (caller.kind === 'service') {
    return access.service ? undefined : 'it acts as a signed-in user, and the service token is not one';
  }
  const rule = access.user;
  if (!rule) return 'it is for the service token only';
  const tier = rule.tier ?? 0;
  if (caller.tier < tier) {
    return `it needs identity tier ${tier} (${tierName(tier)}) or above; you are at tier ${caller.tier} (${tierName(caller.tier)})`;
  }
  if (rule.role && !holdsRole(caller.roles, rule.role)) return `it needs the ${rule.role} role`;
  return undefined;
}

/** The key a caller's limits and sessions are counted under: `user:<id>` or `service`. */
export function callerKey(caller: Principal): string {
  return caller.kind === 'service' ? 'service' : `user:${caller.userId.toHexString()}`;
}

/**
 * A caller's class, the bounded label of per-caller metrics: `service`, `admin`, `operator` (role), `guest`
 * (identity tier 0) or `player`.
 */
export function callerClass(caller: Principal): string {
  if (caller.kind === 'service') return 'service';
  if (holdsRole(caller.roles, 'admin')) return 'admin';
  if (holdsRole(caller.roles, 'operator')) return 'operator';
  return caller.tier === 0 ? 'guest' : 'player';
}

/**
 * HTTP middleware admitting the callers `access` admits (the same rules as tools): 401 without a credential, 403
 * `ACCESS_REQUIRED` with the reason otherwise.
 */
export function requireAccess(guard: AuthGuard, access: ToolAccess): RequestHandler[] {
  return [
    guard.authenticate(),
    (req, _res, next) => {
      if (!req.principal) return next(new UnauthorizedError('Authentication required'));
      const denial = accessDenial(access, req.principal);
      next(denial ? mcpHttpError('ACCESS_REQUIRED', `Not allowed: ${denial}`) : undefined);
    },
  ];
}
