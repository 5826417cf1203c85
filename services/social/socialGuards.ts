import type { Request, RequestHandler } from 'express';
import { RateLimitedError } from '../../platform/errors';
import type { Limiter } from '../../platform/http/rateLimit';
import type { AuthGuard } from '../../access/authGuard';
import { userOf } from '../../access/authGuard';
import { socialError } from './errors';
import type { RequestOrigin } from './ports';

/** Who calls a social route: a bot or agent with the service token, or a signed-in user (any tier, guests too). */
export type SocialCaller = { kind: 'service' } | { kind: 'user'; userId: string; operator: boolean };

/** The caller behind an authenticated request. */
export function callerOf(req: Request): SocialCaller {
  const user = userOf(req);
  if (!user) return { kind: 'service' };
  return {
    kind: 'user',
    userId: user.userId.toHexString(),
    operator: user.roles.some((role) => role !== 'player'),
  };
}

/** The request's actor, address and id, for the audit log. */
export function originOf(req: Request): RequestOrigin {
  const caller = callerOf(req);
  return {
    actor: caller.kind === 'service' ? 'service' : `user:${caller.userId}`,
    ip: req.ip ?? null,
    requestId: req.id ?? null,
  };
}

/** The middleware of the social routes, built on the platform's guard and the per-user write limiter. */
export type SocialGuards = ReturnType<typeof socialGuards>;

/**
 * The middleware of the social routes: `writes` counts a signed-in user's changes (interactions, marks, links) against
 * `writeLimiter` per user (429 RATE_LIMITED with Retry-After past it); the service token is not limited here.
 */
export function socialGuards(guard: AuthGuard, writeLimiter: Limiter) {
  const signedIn: RequestHandler = (req, _res, next) =>
    next(req.principal ? undefined : socialError('UNAUTHENTICATED', 'Sign in or present the service token'));
  return {
    /** A signed-in user or the service token. */
    caller: [guard.authenticate(), signedIn],
    /** A signed-in user within their write limit, or the service token. */
    writes: [
      guard.authenticate(),
      signedIn,
      ((req, _res, next) => {
        const caller = callerOf(req);
        if (caller.kind === 'service') return next();
        writeLimiter
          .hit(`user:${caller.userId}`)
          .then(
            (decision) =>
              next(
                decision.allowed
                  ? undefined
                  : new RateLimitedError(
                      decision.resetSeconds,
                      `At most ${decision.limit} social changes a minute`,
                    ),
              ),
            next,
          );
      }) as RequestHandler,
    ],
    /** The service token only (bot sync). */
    service: [
      guard.authenticate(),
      signedIn,
      ((req, _res, next) =>
        next(
          req.principal?.kind === 'service'
            ? undefined
            : socialError('SERVICE_TOKEN_REQUIRED', 'Bots sync with the service token (BRAIN_SERVICE_TOKEN)'),
        )) as RequestHandler,
    ],
    /** Operators and admins, or the service token (the threat list). */
    operator: [
      guard.authenticate(),
      signedIn,
      ((req, _res, next) => {
        const caller = callerOf(req);
        next(
          caller.kind === 'service' || caller.operator
            ? undefined
            : socialError('ROLE_REQUIRED', 'Requires the operator role or the service token'),
        );
      }) as RequestHandler,
    ],
  };
}
