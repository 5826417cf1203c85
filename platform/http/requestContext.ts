import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { loggableUrl } from './queryRedaction';

declare module 'http' {
  interface IncomingMessage {
    /** The request id: a valid incoming X-Request-Id, or a generated UUID. */
    id: string;
    /** Logger whose lines carry `reqId`. */
    log: Logger;
  }
}

/** An incoming X-Request-Id is honoured when it is 1-128 visible ASCII characters; otherwise a UUID is made. */
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** Paths probed every few seconds by orchestrators; they are not logged per request. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** 500 is a fault; other 5xx (501 feature off, 503 not ready) and 4xx are deliberate answers. */
function levelOf(status: number): 'error' | 'warn' | 'info' {
  return status === 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

/**
 * Request context: gives each request an id (`req.id`, echoed as `X-Request-Id`) and a logger carrying it
 * (`req.log`, made on first use: most requests never log), and writes one access line per request once its response
 * is done: "request completed" (info; warn for 4xx), "request errored" for 5xx (error for 500, warn for deliberate
 * ones such as 501 and 503) or "request aborted" (warn) when the connection closed first. The line holds `reqId`,
 * `req` (id, method, URL with credentials redacted, remote address), `res.statusCode` and `responseTime` in
 * milliseconds; no headers, so it costs little and leaks nothing. Health probes are not logged. `app` is the
 * Express application whose request prototype gets `log`.
 */
export function requestContext(app: Express, logger: Logger): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request): Logger {
      const log = logger.child({ reqId: this.id });
      Object.defineProperty(this, 'log', {
        value: log,
        writable: true,
        configurable: true,
        enumerable: true,
      });
      return log;
    },
    set(this: Request, log: Logger) {
      Object.defineProperty(this, 'log', {
        value: log,
        writable: true,
        configurable: true,
        enumerable: true,
      });
    },
  });
  // The access line holds only the fields below (its URL already redacted), so it skips pino's redaction pass,
  // which costs more than writing the line. Anything added to it must not carry credentials.
  const accessLog = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    const url = req.url;
    const query = url.indexOf('?');
    if (!QUIET_PATHS.has(query === -1 ? url : url.slice(0, query))) {
      const started = performance.now();
      // 'close' follows 'finish' for a completed response, and comes alone when the client went away first.
      res.once('close', () => {
        const status = res.statusCode;
        const aborted = !res.writableFinished;
        const level = aborted ? 'warn' : levelOf(status);
        if (!accessLog.isLevelEnabled(level)) return;
        // With reqId first, this is the line a child logger carrying reqId would write, without making one.
        const line = {
          reqId: id,
          component: 'http',
          req: { id, method: req.method, url: loggableUrl(url), remoteAddress: req.socket.remoteAddress },
          res: { statusCode: status },
          responseTime: Math.round((performance.now() - started) * 10) / 10,
        };
        const message = aborted ? 'request aborted' : status >= 500 ? 'request errored' : 'request completed';
        accessLog[level](line, message);
      });
    }
    next();
  };
}
