import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/clock';
import { mcpHttpError } from './errors';
import { mcpSessionsClosed, mcpSessionsOpen } from './metrics';

/** One open MCP session: its transport and server, whose credential opened it, and when it was last used. */
export interface McpSession {
  id: string;
  /** `user:<id>` or `service`: only the same caller may use the session. */
  owner: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  openedAt: number;
  lastSeenAt: number;
}

/** Options of SessionRegistry. */
export interface SessionRegistryOptions {
  idleMs: number;
  maxSessions: number;
  maxPerCaller: number;
  clock: Clock;
  logger: Logger;
  createServer: () => Server;
}

type CloseReason = 'deleted' | 'idle' | 'shutdown' | 'failed';

/**
 * The open 2025-era sessions of this process (MCP Streamable HTTP, `Mcp-Session-Id`; 2026-07-28 has none). A session is bound to the caller that
 * opened it; it closes on DELETE, after `idleMs` without a request (checked on every use, before every new session
 * and by a sweep timer), and on shutdown. A closed or foreign session id is unknown: the client gets 404 and starts
 * over. New sessions beyond `maxSessions` (503) or `maxPerCaller` (429) are refused after a sweep.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: SessionRegistryOptions) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.idleMs / 2, 60_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The caller's live session `id`, marked as used now; undefined when unknown, expired or another caller's. */
  use(id: string, owner: string): McpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const now = this.options.clock.now();
    if (now - session.lastSeenAt >= this.options.idleMs) {
      void this.close(session, 'idle');
      return undefined;
    }
    if (session.owner !== owner) return undefined;
    session.lastSeenAt = now;
    return session;
  }

  /**
   * A transport for a new session of `owner`, connected to a fresh server. The session is registered when the
   * transport has answered `initialize` (`onsessioninitialized`); `abandon` releases it if that never happened.
   */
  async open(
    owner: string,
  ): Promise<{ transport: WebStandardStreamableHTTPServerTransport; abandon: () => Promise<void> }> {
    this.sweep();
    if (this.sessions.size >= this.options.maxSessions) {
      throw mcpHttpError('MCP_SESSION_LIMIT', 'Too many open MCP sessions on this server; try again later', {
        headers: { 'Retry-After': '30' },
      });
    }
    const own = [...this.sessions.values()].filter((session) => session.owner === owner).length;
    if (own >= this.options.maxPerCaller) {
      throw mcpHttpError(
        'MCP_CALLER_SESSION_LIMIT',
        `You have ${own} open MCP sessions, the most allowed; end one with DELETE /mcp or let it expire`,
        { headers: { 'Retry-After': String(Math.ceil(this.options.idleMs / 1000)) } },
      );
    }
    const server = this.options.createServer();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        const now = this.options.clock.now();
        this.sessions.set(id, { id, owner, transport, server, openedAt: now, lastSeenAt: now });
        mcpSessionsOpen.set(this.sessions.size);
      },
      onsessionclosed: (id) => this.forget(id, 'deleted'),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId, 'deleted');
    };
    await server.connect(transport);
    return {
      transport,
      abandon: async () => {
        if (!transport.sessionId || !this.sessions.has(transport.sessionId)) await server.close();
      },
    };
  }

  /** Closes every session idle for `idleMs` or longer; returns how many. */
  sweep(): number {
    const now = this.options.clock.now();
    let closed = 0;
    for (const session of [...this.sessions.values()]) {
      if (now - session.lastSeenAt >= this.options.idleMs) {
        void this.close(session, 'idle');
        closed += 1;
      }
    }
    return closed;
  }

  /** Closes every session (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => this.close(session, 'shutdown')));
  }

  private async close(session: McpSession, reason: CloseReason): Promise<void> {
    this.forget(session.id, reason);
    try {
      await session.server.close();
    } catch (error) {
      this.options.logger.warn({ err: error, session: session.id }, 'MCP session did not close cleanly');
    }
  }

  private forget(id: string, reason: CloseReason): void {
    if (!this.sessions.delete(id)) return;
    mcpSessionsClosed.inc({ reason });
    mcpSessionsOpen.set(this.sessions.size);
  }
}
