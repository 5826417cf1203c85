import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

/** An incoming X-Request-Id is honoured when it is 1-128 visible ASCII characters; otherwise a UUID is made. */
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Paths probed every few seconds by orchestrators; they are not logged per request. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * pino-http middleware: gives each request an id (`req.id`, echoed as `X-Request-Id`) and a child logger
 * (`req.log`), and logs one line per completed request (warn for 4xx, error for 5xx).
 */
export function requestContext(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    // 500 is a fault; other 5xx (501 feature off, 503 not ready) are deliberate answers.
    customLogLevel(_req, res, error) {
      if (error || res.statusCode === 500) return 'error';
      if (res.statusCode > 500) return 'warn';
      if (res.statusCode >= 400) return 'warn';
      return 'info';
    },
    // Handler logs carry just `reqId`; the completion line also has the (redacted) request and response.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'reqId' },
    customProps: () => ({ component: 'http' }),
  });
}
