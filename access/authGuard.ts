import type { Request, RequestHandler } from 'express';
import { holdsRole, type UserRole } from '../models/User';
import type { AppError } from '../platform/errors';
import { accessError } from './errors';
import { secretsEqual } from '../platform/secrets';
import type { Principal } from './principal';
import { tierName } from './tiers';

/** The credential in `Authorization: Bearer <token>`, or (for browser pages such as the monitor) a Basic password. */
export function presentedToken(req: Request, allowBasic = false): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const space = header.indexOf(' ');
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (space === -1 || !value) return undefined;
  if (scheme === 'bearer') return value;
  if (allowBasic && scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon === -1 ? undefined : decoded.slice(colon + 1);
  }
  return undefined;
}

type UserPrincipal = Extract<Principal, { kind: 'user' }>;

/** The port the guard resolves a session token through (`services/auth/sessions.ts` implements it). */
export interface SessionAuthenticator {
  /** The user behind a live session token, or null when it is unknown, expired or revoked. */
  authenticate(token: string): Promise<UserPrincipal | null>;
}

/**
 * Authentication and authorisation middleware. A request may carry a session token or the service token
 * (BRAIN_SERVICE_TOKEN, compared in constant time) as a bearer credential. A presented but invalid credential is
 * always 401; a missing one is 401 only where a guard requires it; a valid one lacking a role or tier is 403.
 */
export class AuthGuard {
  constructor(
    private readonly sessions: SessionAuthenticator,
    private readonly serviceToken: string | undefined,
  ) {}

  /** Resolves the caller into `req.principal` when a credential is presented; rejects invalid credentials. */
  authenticate(options: { allowBasic?: boolean } = {}): RequestHandler {
    return (req, _res, next) => {
      const token = presentedToken(req, options.allowBasic);
      if (token === undefined) {
        next();
        return;
      }
      this.resolve(token).then((principal) => {
        if (!principal) {
          next(accessError('INVALID_CREDENTIAL', 'The credential is invalid, expired or revoked'));
          return;
        }
        req.principal = principal;
        next();
      }, next);
    };
  }

  /** Signed-in users only: no credential is 401, the service token 403 USER_SESSION_REQUIRED. */
  readonly requireUser: RequestHandler[] = [
    this.authenticate(),
    (req, _res, next) =>
      next(
        userOf(req)
          ? undefined
          : req.principal
            ? userSessionRequired()
            : accessError('UNAUTHENTICATED', 'Sign in first'),
      ),
  ];

  /**
   * SPEC 5 `require_brain_auth`: a user signed in with a wallet, email or SSO identity (tier 1 and above) or the
   * service token; a guest (tier 0) gets 403 TIER_REQUIRED.
   */
  readonly requireBrainAuth: RequestHandler[] = [
    this.authenticate(),
    (req, _res, next) => {
      if (!req.principal) return next(accessError('UNAUTHENTICATED', 'Authentication required'));
      const user = userOf(req);
      next(user && user.tier < 1 ? tierRequired(1) : undefined);
    },
  ];

  /**
   * Users holding `role` or a higher one (player < operator < admin: an admin passes operator routes), or for an
   * orthogonal grant (`creator`) exactly that grant; the service token is not a user and gets 403
   * USER_SESSION_REQUIRED, as on every user-only route.
   */
  requireRole(role: UserRole, options: { allowBasic?: boolean } = {}): RequestHandler[] {
    return [
      this.authenticate(options),
      (req, _res, next) => {
        if (!req.principal) {
          return next(
            options.allowBasic
              ? browserChallenge()
              : accessError('UNAUTHENTICATED', 'Authentication required'),
          );
        }
        const user = userOf(req);
        if (!user) return next(userSessionRequired());
        next(
          holdsRole(user.roles, role) ? undefined : accessError('ROLE_REQUIRED', `Requires the ${role} role`),
        );
      },
    ];
  }

  /**
   * The service token, or users holding `role` or a higher one (writes to what every caller shares, such as the
   * brain's indexes): no credential is 401, anyone else 403 ROLE_REQUIRED.
   */
  requireServiceOrRole(role: UserRole): RequestHandler[] {
    return [
      this.authenticate(),
      (req, _res, next) => {
        if (!req.principal) return next(accessError('UNAUTHENTICATED', 'Authentication required'));
        const user = userOf(req);
        next(
          !user || holdsRole(user.roles, role)
            ? undefined
            : accessError('ROLE_REQUIRED', `Requires the service token or the ${role} role`),
        );
      },
    ];
  }

  /** Users at identity tier `tier` or above. */
  requireTier(tier: number): RequestHandler[] {
    return [
      ...this.requireUser,
      (req, _res, next) => {
        const user = userOf(req);
        next(user && user.tier >= tier ? undefined : tierRequired(tier));
      },
    ];
  }

  private async resolve(token: string): Promise<Principal | null> {
    if (this.serviceToken && secretsEqual(token, this.serviceToken)) return { kind: 'service' };
    return this.sessions.authenticate(token);
  }
}

/** 403 for the service token on a route that acts for a signed-in user. */
function userSessionRequired(): AppError {
  return accessError(
    'USER_SESSION_REQUIRED',
    'This route acts for a signed-in user; the service token is not a user session',
  );
}

/** 403 TIER_REQUIRED for a user below `tier`. */
function tierRequired(tier: number): AppError {
  return accessError('TIER_REQUIRED', `Requires identity tier ${tier} (${tierName(tier)}) or above`);
}

/** 401 asking a browser for credentials (HTTP Basic; the password is a session token). */
function browserChallenge(): AppError {
  return accessError(
    'UNAUTHENTICATED',
    'Sign in as an admin: HTTP Basic with any user name and a session token as the password',
    { headers: { 'WWW-Authenticate': 'Basic realm="forge-admin", charset="UTF-8"' } },
  );
}

/** How a caller is recorded as the author of a change: `user:<id>` or `service`. */
export function actorOf(principal: Principal): string {
  return principal.kind === 'user' ? `user:${principal.userId.toHexString()}` : 'service';
}

/** The signed-in user behind a request, if any. */
export function userOf(req: Request): UserPrincipal | undefined {
  return req.principal?.kind === 'user' ? req.principal : undefined;
}
