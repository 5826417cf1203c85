import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE, problemType, toAppError } from './problem';

/**
 * Keeps a client's reset from crashing the server during an upgrade. Node's HTTP server takes its own 'error' listener
 * off a socket before it emits 'upgrade', and a socket without one turns the client's ECONNRESET (or an EPIPE on the
 * refusal's write) into an uncaught exception: a Colyseus SDK reconnecting to a consumed seat and then exiting took a
 * bench's server down that way. Every upgrade socket gets this listener first (platform.ts); it destroys the socket.
 * `ws` adds its own once it takes the socket over. Safe to call twice.
 */
export function guardUpgradeSocket(socket: Duplex): void {
  if (!socket.listeners('error').includes(destroyOnError)) socket.on('error', destroyOnError);
}

function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * Refuses a WebSocket upgrade before it happens: writes an HTTP problem response (RFC 9457 body with `code`) for
 * `error` on the raw socket and closes it. Unexpected errors become 500 and are logged; the body never carries
 * more than the error's public fields.
 */
export function refuseUpgrade(socket: Duplex, req: IncomingMessage, error: unknown, logger?: Logger): void {
  guardUpgradeSocket(socket);
  const { appError, internal } = toAppError(error);
  if (internal) logger?.error({ err: error }, 'WebSocket handshake failed');
  const body = JSON.stringify({
    type: problemType(appError.code),
    title: appError.title,
    status: appError.status,
    detail: appError.detail,
    instance: (req.url ?? '').split('?')[0],
    code: appError.code,
  });
  const headers = [
    `HTTP/1.1 ${appError.status} ${appError.title}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(appError.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  if (!socket.destroyed) socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}
