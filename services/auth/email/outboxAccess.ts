import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { authError } from '../errors';

/** The header that carries the development outbox's token (printed at start-up). */
export const OUTBOX_TOKEN_HEADER = 'x-dev-outbox-token';

/** Headers a reverse proxy adds: their presence means the socket's address is the proxy's, not the client's. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-host'] as const;

function isLoopback(address: string | undefined): boolean {
  if (!address || !isIP(address)) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Whether a request comes from this machine as `TRUST_PROXY` sees it: its client address (`req.ip`, resolved through
 * the trusted proxies) is loopback, and if a proxy forwarded it, TRUST_PROXY trusted that proxy and resolved the
 * client through `X-Forwarded-For` (`req.ips`). A loopback socket carrying proxy headers TRUST_PROXY did not resolve
 * (the default `false`, or a proxy that sends only `Forwarded` / `X-Real-IP`) is a proxy on this host forwarding
 * somebody else: not this machine.
 */
export function fromThisMachine(req: Request): boolean {
  if (!isLoopback(req.ip)) return false;
  const proxied = PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
  if (!proxied) return true;
  return req.headers['x-forwarded-for'] !== undefined && req.ips.length > 0;
}

function tokenMatches(presented: string | string[] | undefined, token: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The outbox holds sign-in codes: it is served to this machine (`fromThisMachine`), or to whoever presents the
 * development token printed at start-up in `X-Dev-Outbox-Token`; anyone else gets 403 DEV_OUTBOX_LOOPBACK_ONLY.
 */
export function outboxReaders(token: string): RequestHandler {
  return (req, _res, next) =>
    next(
      fromThisMachine(req) || tokenMatches(req.headers[OUTBOX_TOKEN_HEADER], token)
        ? undefined
        : authError(
            'DEV_OUTBOX_LOOPBACK_ONLY',
            'The development outbox is served to this machine only (as TRUST_PROXY resolves the client), or with ' +
              'the X-Dev-Outbox-Token printed at start-up',
          ),
    );
}
