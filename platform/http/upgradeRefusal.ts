import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { PROBLEM_CONTENT_TYPE, problemType, toAppError } from './problem';

/**
 * Refuses a WebSocket upgrade before it happens: writes an HTTP problem response (RFC 9457 body with `code`) for
 * `error` on the raw socket and closes it. Unexpected errors become 500 and are logged; the body never carries
 * more than the error's public fields.
 */
export function refuseUpgrade(socket: Duplex, req: IncomingMessage, error: unknown, logger?: Logger): void {
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
