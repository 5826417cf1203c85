import type { Request, RequestHandler, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  isInitializeRequest,
  isLegacyRequest,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import { AppError } from '../../platform/errors';
import { problemType } from '../../platform/http/problem';
import type { Principal } from '../../access/principal';
import { catalogueViewOf } from './catalogueView';
import { mcpHttpError, rpcCodeOf } from './errors';
import type { RequestCall } from './gatewayServer';
import type { SessionRegistry } from './sessionRegistry';
import { callerKey } from './toolAccess';

/** What the `/mcp` endpoint needs. */
export interface McpEndpointDependencies {
  /** 2025-era sessions (`initialize`, `Mcp-Session-Id`). */
  sessions: SessionRegistry;
  /** The SDK's 2026-07-28 handler: a server instance per request, no sessions. */
  modern: Pick<McpHttpHandler, 'fetch'>;
  /** The tool groups a `/mcp?groups=` view may name. */
  groups: readonly string[];
  /** Resolves a presented bearer credential into `req.principal` (the identity service's guard). */
  authenticate: RequestHandler;
  /** Whether the request's `Origin` (when present) may call the gateway. */
  originAllowed: (req: Request) => boolean;
  /** The URL of the RFC 9728 metadata document, for `WWW-Authenticate`. */
  resourceMetadataUrl: (req: Request) => string;
}

const SESSION_HEADER = 'mcp-session-id';

/**
 * The request headers the SDK reads. Only these are handed over: the credential was checked here and never
 * reaches the SDK (its handlers see request headers).
 */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  SESSION_HEADER,
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
];

/**
 * `POST|GET|DELETE /mcp` (MCP Streamable HTTP): Origin (403) → bearer credential (401 with the resource-metadata
 * challenge) → the catalogue view of the URL (400) → by revision: a 2026-07-28 request (its `_meta` envelope) goes
 * to the SDK's per-request handler; a 2025-era one to the caller's session (404 when unknown, expired or another
 * caller's; a new one on `initialize`), whose transport answers with JSON (no server-initiated stream: GET is 405).
 */
export class McpEndpoint {
  constructor(private readonly deps: McpEndpointDependencies) {}

  async handle(req: Request, res: Response): Promise<void> {
    if (!this.deps.originAllowed(req)) {
      throw mcpHttpError('MCP_ORIGIN_FORBIDDEN', `Origin ${req.headers.origin} may not call this gateway`);
    }
    const caller = await this.authenticate(req);
    if (req.method === 'GET') {
      throw mcpHttpError(
        'MCP_SSE_NOT_OFFERED',
        'This gateway sends no server-initiated messages; POST requests and read the JSON answers',
        { headers: { Allow: 'POST, DELETE' } },
      );
    }
    const owner = callerKey(caller);
    const call: RequestCall = {
      caller,
      ip: req.ip ?? null,
      requestId: req.id ?? null,
      logger: req.log,
      view: catalogueViewOf(req.query, this.deps.groups),
    };
    const auth: AuthInfo = { token: owner, clientId: owner, scopes: [], extra: { call } };
    const request = webRequest(req);
    if (req.method === 'POST' && !(await isLegacyRequest(request, req.body))) {
      await write(await this.deps.modern.fetch(request, { parsedBody: req.body, authInfo: auth }), res);
      return;
    }
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId === 'string') {
      const session = this.deps.sessions.use(sessionId, owner);
      if (!session) {
        throw mcpHttpError(
          'MCP_SESSION_NOT_FOUND',
          'Session not found: it expired or was closed; initialize again',
        );
      }
      await write(
        await session.transport.handleRequest(request, { parsedBody: req.body, authInfo: auth }),
        res,
      );
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      throw mcpHttpError(
        'MCP_SESSION_REQUIRED',
        'No Mcp-Session-Id: send initialize first to open a session',
      );
    }
    const { transport, abandon } = await this.deps.sessions.open(owner);
    try {
      await write(await transport.handleRequest(request, { parsedBody: req.body, authInfo: auth }), res);
    } finally {
      await abandon();
    }
  }

  private async authenticate(req: Request): Promise<Principal> {
    try {
      await new Promise<void>((resolve, reject) =>
        this.deps.authenticate(req, {} as Response, (error?: unknown) => (error ? reject(error) : resolve())),
      );
    } catch (error) {
      if (error instanceof AppError && error.status === 401) throw this.challenge(req, error.detail, true);
      throw error;
    }
    if (!req.principal)
      throw this.challenge(req, 'Present a session token or the service token as a bearer credential', false);
    return req.principal;
  }

  private challenge(req: Request, detail: string | undefined, invalid: boolean): AppError {
    const metadata = `resource_metadata="${this.deps.resourceMetadataUrl(req)}"`;
    return mcpHttpError('MCP_UNAUTHENTICATED', detail ?? 'Authentication required', {
      headers: {
        'WWW-Authenticate': invalid ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`,
      },
    });
  }
}

/** The web-standard Request the SDK reads: the URL, the method and only the MCP headers (never the credential). */
function webRequest(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
    method: req.method,
    headers,
  });
}

/**
 * Writes the SDK's answer. JSON (every answer but a `subscriptions/listen` stream) is read whole and written with a
 * `Content-Length` in one write: a chunked answer with a separate last chunk cost about 8 ms per call at p50. An
 * event stream is piped as it comes.
 */
async function write(answer: globalThis.Response, res: Response): Promise<void> {
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  if (answer.body && answer.headers.get('content-type')?.startsWith('text/event-stream')) {
    res.flushHeaders();
    try {
      await pipeline(Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>), res);
    } catch (error) {
      // The client closing its stream ends it; any other failure is the platform's to report.
      if (!res.destroyed) throw error;
    }
    return;
  }
  const body = await answer.text();
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** Renders an error of `/mcp` as a JSON-RPC error response, the problem details in `error.data`. */
export function renderMcpError(error: AppError, req: Request, res: Response): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  const rpcCode = rpcCodeOf(error);
  res.status(error.status).json({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: rpcCode,
      message: error.detail ?? error.title,
      data: {
        type: problemType(error.code),
        title: error.title,
        status: error.status,
        code: error.code,
        ...(error.detail ? { detail: error.detail } : {}),
        ...(error.errors?.length ? { errors: error.errors } : {}),
        ...(req.id ? { requestId: req.id } : {}),
      },
    },
  });
}
