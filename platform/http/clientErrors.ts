import { randomUUID } from 'node:crypto';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { AppError } from '../errors';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem';

/** How long a refused connection keeps reading what the client still sends before it is closed (see below). */
export const LINGER_MS = 2_000;

/** Node's parser and timeout errors → the problem each is answered with. */
function problemFor(code: string | undefined): AppError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError(431, 'HEADERS_TOO_LARGE', 'Request Header Fields Too Large', {
        detail:
          'The request line and headers exceed the server limit (16 KB): shorten the URL, cookies or tokens',
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return new AppError(408, 'REQUEST_TIMEOUT', 'Request Timeout', {
        detail: 'The request was not received in time',
      });
    default:
      return new AppError(400, 'MALFORMED_REQUEST', 'Bad Request', {
        detail: 'The request is not valid HTTP/1.1',
      });
  }
}

/**
 * Answers requests Node's HTTP parser refuses before Express sees them (a header section over 16 KB, a malformed
 * request line or header, a bad chunk, a request that timed out) with an RFC 9457 problem instead of Node's bare
 * `400`/`431`: `Content-Type: application/problem+json`, a generated `requestId` (also `X-Request-Id`), and
 * `Connection: close`. Nothing of the request is echoed or logged (it may carry credentials), only Node's error code.
 *
 * The connection is half-closed after the answer and keeps reading (and discarding) what the client is still
 * sending for up to `LINGER_MS`, as nginx's lingering close does: closing while a 40 KB cookie is still arriving
 * makes the kernel reset the connection, and the client would then see a reset instead of the answer.
 *
 * A request after a pipelined one that is still being answered gets its problem after that response. What cannot be
 * answered: a connection that is already gone (`ECONNRESET`, not writable), or one whose previous response closed it
 * (`Connection: close`).
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Node's own data handler would feed the rest to the failed parser (and report it again): drain it instead.
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
    socket.resume();
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    // A pipelined request before the bad one is still being answered: the problem follows its response.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (inFlight && !inFlight.writableFinished) inFlight.once('finish', () => answer(socket, error, logger));
    else answer(socket, error, logger);
  });
}

function answer(socket: Socket, error: NodeJS.ErrnoException, logger: Logger): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const problem = problemFor(error.code);
  const requestId = randomUUID();
  logger.warn({ code: error.code, status: problem.status, reqId: requestId }, 'client error');
  const body = JSON.stringify({
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    requestId,
  });
  const head = [
    `HTTP/1.1 ${problem.status} ${problem.title}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
