import http from 'node:http';
import type { Logger } from 'pino';
import type { Catalog } from '../catalog';
import { formatError, QdrantApiError, routeNotFound } from '../errors';
import { routes, type Route } from './routes';

/** The Qdrant version whose REST API this engine follows (answered by `GET /` for client compatibility checks). */
export const QDRANT_API_VERSION = '1.19.0';

/** Qdrant's default `service.max_request_size_mb`. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

const compiled: CompiledRoute[] = routes.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
});

/** Builds the HTTP server: Qdrant's envelope (`{result, status: "ok", time}`) and error bodies. */
export function createQdrantHttpServer(catalog: Catalog, logger: Logger): http.Server {
  return http.createServer((request, response) => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    readBody(request)
      .then((raw) => {
        const url = new URL(request.url ?? '/', 'http://localhost');
        const special = serviceEndpoint(url.pathname);
        if (special !== undefined && request.method === 'GET') return sendJson(response, 200, special);
        const { route, params } = matchRoute(request.method ?? 'GET', url.pathname);
        const body = parseJson(raw);
        const result = route.handle({ catalog, params, query: url.searchParams, body });
        sendJson(response, 200, { result, status: 'ok', time: seconds() });
      })
      .catch((error: unknown) => {
        if (error instanceof QdrantApiError) {
          sendJson(response, error.status, { status: { error: error.message }, time: seconds() });
          return;
        }
        logger.error(
          { err: error, method: request.method, url: request.url },
          'qdrant engine request failed',
        );
        const message = error instanceof Error ? error.message : String(error);
        sendJson(response, 500, { status: { error: `Service internal error: ${message}` }, time: seconds() });
      });
  });
}

function serviceEndpoint(pathname: string): unknown {
  if (pathname === '/') {
    return { title: 'qdrant - vector search engine', version: QDRANT_API_VERSION, commit: 'embedded' };
  }
  if (pathname === '/healthz' || pathname === '/livez' || pathname === '/readyz')
    return `${pathname.slice(1)} check passed`;
  return undefined;
}

function matchRoute(method: string, pathname: string): { route: Route; params: Record<string, string> } {
  for (const { route, pattern, names } of compiled) {
    if (route.method !== method) continue;
    const match = pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1])));
    return { route, params };
  }
  throw routeNotFound(method, pathname);
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw formatError((error as Error).message);
  }
}

function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest of the body is drained unread so the 413 can still be sent.
      if (size > MAX_BODY_BYTES)
        reject(new QdrantApiError(413, 'QDRANT_PAYLOAD_TOO_LARGE', 'Payload too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function sendJson(response: http.ServerResponse, status: number, value: unknown): void {
  if (response.headersSent || response.destroyed) return;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  response.writeHead(status, {
    'content-type': typeof value === 'string' ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
