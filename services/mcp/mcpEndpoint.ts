import type { Request, RequestHandler, Response } from 'express';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../../platform/errors';
import { problemType } from '../../platform/http/problem';
import type { Principal } from '../auth/principal';
import { McpHttpError } from './errors';
import type { SessionRegistry } from './sessionRegistry';
import { callerKey } from './toolAccess';
import type { CallContext } from './toolCalls';

/** What the `/mcp` endpoint needs. */
export interface McpEndpointDependencies {
  sessions: SessionRegistry;
  /** Resolves a presented bearer credential into `req.principal` (the identity service's guard). */
  authenticate: RequestHandler;
  /** Whether the request's `Origin` (when present) may call the gateway. */
  originAllowed: (req: Request) => boolean;
  /** The URL of the RFC 9728 metadata document, for `WWW-Authenticate`. */
  resourceMetadataUrl: (req: Request) => string;
}

const SESSION_HEADER = 'mcp-session-id';

/**
 * The request headers the SDK transport reads. Only these are handed over: the credential was checked here and
 * never reaches the SDK (its handlers see request headers).
 */
const TRANSPORT_HEADERS = ['accept', 'content-type', SESSION_HEADER, 'mcp-protocol-version', 'last-event-id'];

/**
 * `POST|GET|DELETE /mcp` (MCP Streamable HTTP): Origin (403) → bearer credential (401 with the resource-metadata
 * challenge) → the caller's session (404 when unknown, expired or another caller's; a new one on `initialize`) →
 * the session's transport, which answers with JSON (no server-initiated stream: GET is 405).
 */
export class McpEndpoint {
  constructor(private readonly deps: McpEndpointDependencies) {}

  async handle(req: Request, res: Response): Promise<void> {
    if (!this.deps.originAllowed(req)) {
      throw new McpHttpError(
        'MCP_ORIGIN_FORBIDDEN',
        `Origin ${req.headers.origin} may not call this gateway`,
      );
    }
    const caller = await this.authenticate(req);
    if (req.method === 'GET') {
      throw new AppError(405, 'MCP_SSE_NOT_OFFERED', 'Method Not Allowed', {
        detail: 'This gateway sends no server-initiated messages; POST requests and read the JSON answers',
        headers: { Allow: 'POST, DELETE' },
      });
    }
    const owner = callerKey(caller);
    const context: Omit<CallContext, 'sessionId'> = {
      caller,
      ip: req.ip ?? null,
      requestId: req.id ?? null,
      logger: req.log,
    };
    const auth = { token: owner, clientId: owner, scopes: [], extra: { call: context } };
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId === 'string') {
      const session = this.deps.sessions.use(sessionId, owner);
      if (!session) {
        throw new McpHttpError(
          'MCP_SESSION_NOT_FOUND',
          'Session not found: it expired or was closed; initialize again',
        );
      }
      await relay(session.transport, req, res, auth);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      throw new McpHttpError(
        'MCP_SESSION_REQUIRED',
        'No Mcp-Session-Id: send initialize first to open a session',
      );
    }
    const { transport, abandon } = await this.deps.sessions.open(owner);
    try {
      await relay(transport, req, res, auth);
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

  private challenge(req: Request, detail: string | undefined, invalid: boolean): McpHttpError {
    const metadata = `resource_metadata="${this.deps.resourceMetadataUrl(req)}"`;
    return new McpHttpError('MCP_UNAUTHENTICATED', detail ?? 'Authentication required', {
      'WWW-Authenticate': invalid ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`,
    });
  }
}

/**
 * Hands an Express request to the SDK's web-standard transport and writes its answer in one write. The body was
 * parsed by the platform's JSON parser; answers are JSON (no streams), so the whole Response is read at once.
 */
async function relay(
  transport: WebStandardStreamableHTTPServerTransport,
  req: Request,
  res: Response,
  authInfo: AuthInfo,
): Promise<void> {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  const request = new globalThis.Request(`http://${req.headers.host ?? 'localhost'}${req.originalUrl}`, {
    method: req.method,
    headers,
  });
  const answer = await transport.handleRequest(request, { parsedBody: req.body, authInfo });
  const body = await answer.text();
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  // A known length: head and body leave in one write, never as chunks (a separate last chunk costs a round trip).
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** Renders an error of `/mcp` as a JSON-RPC error response, the problem details in `error.data`. */
export function renderMcpError(error: AppError, req: Request, res: Response): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  const rpcCode = error instanceof McpHttpError ? error.rpcCode : -32000;
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
        ...(req.id ? { requestId: req.id } : {}),
      },
    },
  });
}
