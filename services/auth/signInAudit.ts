import { AsyncLocalStorage } from 'node:async_hooks';
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { AuditRecorder } from '../../models/AuditEvent';
import type { SessionRecord } from '../../models/Session';
import type { Clock } from '../../platform/clock';
import { toAppError } from '../../platform/http/problem';

/** The routes that open a session (sign-in by wallet, email, single sign-on or as a guest). */
export const SIGN_IN_PATHS = [
  '/auth/wallet/verify',
  '/auth/email/login',
  '/auth/email/verify',
  '/auth/oidc/callback',
  '/auth/guest',
];

/** The request a sign-in happens in: where it came from and whom it claimed to be (address or email). */
interface SignInRequest {
  ip: string | null;
  requestId: string | null;
  claimed: string;
}

/**
 * Sign-ins and failed sign-ins for the platform's audit log. `scope` runs each sign-in request in an async context,
 * so the session store's `issued` hook (which knows the user and method) can name the request's address and id;
 * `failures` (mounted after the routes) records every refused sign-in with its error code and the address or
 * email it claimed. Nothing secret is recorded: no token, password, code or signature.
 */
export class SignInAudit {
  private readonly requests = new AsyncLocalStorage<SignInRequest>();

  constructor(
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  /** Middleware before the sign-in routes. */
  readonly scope: RequestHandler = (req, _res, next) => {
    this.requests.run({ ip: req.ip ?? null, requestId: req.id ?? null, claimed: claimedIdentity(req) }, next);
  };

  /** Error middleware after the sign-in routes: records the refusal and passes the error on. */
  readonly failures: ErrorRequestHandler = (error, req, _res, next) => {
    const { appError } = toAppError(error);
    this.audit.record({
      at: new Date(this.clock.now()),
      actor: 'anonymous',
      kind: 'auth.sign_in_failed',
      target: claimedIdentity(req),
      outcome: appError.status === 429 ? 'rate_limited' : appError.status >= 500 ? 'error' : 'failed',
      ip: req.ip ?? null,
      request_id: req.id ?? null,
      details: { code: appError.code, status: appError.status, route: req.originalUrl.split('?')[0] },
    });
    next(error);
  };

  /** The session store's hook: a session was opened. */
  issued(session: SessionRecord): void {
    const request = this.requests.getStore();
    this.audit.record({
      at: new Date(this.clock.now()),
      actor: `user:${session.userId.toHexString()}`,
      kind: 'auth.sign_in',
      target: session.address ? `address:${session.address.toLowerCase()}` : request?.claimed || '',
      outcome: 'ok',
      ip: request?.ip ?? null,
      request_id: request?.requestId ?? null,
      details: { method: session.method },
    });
  }
}

/** The wallet address or email a sign-in request names (lowercased), or empty. */
function claimedIdentity(req: Request): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (typeof body.address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(body.address))
    return `address:${body.address.toLowerCase()}`;
  if (typeof body.email === 'string' && body.email.length <= 254) return `email:${body.email.toLowerCase()}`;
  return '';
}
