import net from 'node:net';
import type { Logger } from 'pino';
import { listen } from '../../../platform/listen';
import { telnetConnections, telnetDropped } from '../../../platform/metrics';
import type { PortListener } from '../../../platform/platform';
import { type SessionDependencies, TelnetSession } from './telnetSession';

/** Where and how the telnet port listens, and its limits. */
export interface TelnetServerOptions {
  port: number;
  host: string;
  /** Connections open at once from one client address; more are told so and closed. */
  maxPerAddress: number;
  /** Connections open at once in all; more are refused the same way. Default 10,000. */
  maxConnections?: number;
  /** A signed-in connection with no line typed for this long is closed, ms. */
  idleTimeoutMs: number;
  /** A connection not signed in this long after it opened is closed (slow-loris, idle sockets), ms. Default 60 s. */
  signInTimeoutMs?: number;
  /** How often the idle check runs, ms (a pass over the open connections). Default 1 s. */
  sweepMs?: number;
  /** Keeps signed-in players in the world (the gateway's idle timeout) this often, ms. Default 30 s. */
  keepAliveMs?: number;
  logger: Logger;
}

/**
 * The world's telnet port: a `net` server beside the HTTP port (game role). Each connection is a `TelnetSession`.
 * It caps connections per client address and in all, closes connections that do not sign in within
 * `signInTimeoutMs` or type nothing for `idleTimeoutMs`, and keeps signed-in players in the world while their
 * terminal is open. Closing it says goodbye to every terminal and lets their players leave the world (saved).
 */
export class TelnetServer implements PortListener {
  private readonly server: net.Server;
  private readonly sessions = new Set<TelnetSession>();
  private readonly perAddress = new Map<string, number>();
  private sweep?: NodeJS.Timeout;
  private keepAlive?: NodeJS.Timeout;

  constructor(
    private readonly options: TelnetServerOptions,
    private readonly deps: SessionDependencies,
  ) {
    this.server = net.createServer((socket) => this.connected(socket));
    this.server.on('error', (err) => options.logger.error({ err }, 'telnet server error'));
  }

  /** The bound port (with `port: 0`, the one the system chose). */
  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Connections open now. */
  get connections(): number {
    return this.sessions.size;
  }

  async start(): Promise<number> {
    const port = await listen(this.server, this.options.port, this.options.host);
    this.sweep = setInterval(() => this.closeIdle(), this.options.sweepMs ?? 1_000);
    this.sweep.unref();
    this.keepAlive = setInterval(() => this.keepPlayers(), this.options.keepAliveMs ?? 30_000);
    this.keepAlive.unref();
    this.options.logger.info({ port, host: this.options.host }, 'telnet listening');
    return port;
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    clearInterval(this.keepAlive);
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const session of this.sessions) session.close('The server is restarting; your character is saved.');
    const ended = [...this.sessions].map(
      (session) => new Promise<void>((resolve) => session.connection.socket.once('close', () => resolve())),
    );
    await Promise.race([Promise.all(ended), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    for (const session of this.sessions) session.connection.socket.destroy();
    if (this.server.listening) await stopped;
  }

  private connected(socket: net.Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    socket.setNoDelay(true);
    socket.on('error', (err) => this.options.logger.debug({ err, address }, 'telnet socket error'));
    const open = this.perAddress.get(address) ?? 0;
    if (open >= this.options.maxPerAddress || this.sessions.size >= (this.options.maxConnections ?? 10_000)) {
      telnetDropped.inc({ reason: 'connection_cap' });
      socket.end('Too many connections from your address; close one and try again.\r\n');
      setTimeout(() => socket.destroy(), 1000).unref();
      return;
    }
    this.perAddress.set(address, open + 1);
    const session = new TelnetSession(socket, address, this.deps);
    this.sessions.add(session);
    telnetConnections.inc();
    socket.once('close', () => {
      telnetConnections.dec();
      this.sessions.delete(session);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
      session.closed();
    });
    session.start();
  }

  private closeIdle(): void {
    const now = this.deps.now();
    const signIn = this.options.signInTimeoutMs ?? 60_000;
    for (const session of this.sessions) {
      if (session.userId === undefined && now - session.openedAt >= signIn) {
        telnetDropped.inc({ reason: 'sign_in_timeout' });
        session.close('You did not sign in in time; goodbye.');
      } else if (session.userId !== undefined && now - session.lastInput >= this.options.idleTimeoutMs) {
        telnetDropped.inc({ reason: 'idle_timeout' });
        session.close('You were idle too long; your character is saved. Goodbye.');
      }
    }
  }

  private keepPlayers(): void {
    const players = new Set<string>();
    for (const session of this.sessions) if (session.userId) players.add(session.userId);
    for (const userId of players) {
      this.deps.access
        .touch(userId)
        .catch((err: unknown) =>
          this.options.logger.debug({ err, userId }, 'keeping a telnet player failed'),
        );
    }
  }
}
