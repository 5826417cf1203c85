import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock } from '../../platform/clock';
import { AppError, UnauthorizedError, decodePathSegment } from '../../platform/errors';
import type { UpgradeRoute } from '../../platform/platform';
import type { PlayerIdentity } from '../../rooms/persistence';
import { mudError } from './errors';
import { ChannelHolds } from './channelHolds';
import { PlayerSocket } from './playerSocket';
import type { WorldAccess } from './worldAccess';
import { refuseUpgrade } from '../../platform/http/upgradeRefusal';

/** The subprotocol the channel speaks; browsers offer it together with `bearer.<token>`. */
export const CHANNEL_PROTOCOL = 'mud.v1';

const BEARER_PROTOCOL = 'bearer.';
const CHANNEL_PATH = /^\/mud\/ws\/([^/?#]+)\/?(?:\?.*)?$/;

/** Options of the plain WebSocket channel. */
export interface SocketChannelOptions {
  access: WorldAccess;
  logger: Logger;
  clock: Clock;
  /** Heartbeat: ping every this many ms, drop sockets that missed one, and keep their player in the world. */
  heartbeatMs?: number;
  /** Largest accepted frame, bytes (bigger ones close the socket with 1009). Default 16 KiB. */
  maxFrameBytes?: number;
  /** Open channels of every kind (shared with the telnet port), so the last one closing releases the player. */
  holds?: ChannelHolds;
}

/**
 * `WS /mud/ws/{user_id}`: the world for simple clients, as JSON text frames over a plain WebSocket. The
 * handshake must carry the user's session token (`Authorization: Bearer`, or the subprotocols `mud.v1` +
 * `bearer.<token>`), and `user_id` must be that user: anything else is refused before the upgrade with a
 * problem response (401, 403, 404 or 503).
 */
export class SocketChannel implements UpgradeRoute {
  readonly path = /^\/mud\/ws(\/|\?|$)/;
  private readonly server: WebSocketServer;
  private readonly sockets = new Map<WebSocket, PlayerSocket>();
  private readonly alive = new WeakSet<WebSocket>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly holds: ChannelHolds;

  constructor(private readonly options: SocketChannelOptions) {
    this.holds = options.holds ?? new ChannelHolds();
    this.server = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxFrameBytes ?? 16 * 1024,
      handleProtocols: (offered) => (offered.has(CHANNEL_PROTOCOL) ? CHANNEL_PROTOCOL : false),
    });
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.admit(req).then(
      (identity) => this.server.handleUpgrade(req, socket, head, (ws) => this.connected(ws, identity)),
      (error: unknown) => refuseUpgrade(socket, req, error, this.options.logger),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const closing = [...this.sockets.keys()].map(
      (ws) =>
        new Promise<void>(
          (resolve) => (ws.once('close', () => resolve()), ws.close(1001, 'server stopping')),
        ),
    );
    await Promise.race([Promise.all(closing), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    for (const ws of this.sockets.keys()) ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Checks the handshake: path, token, own channel, world reachable. */
  private async admit(req: IncomingMessage): Promise<PlayerIdentity> {
    const match = CHANNEL_PATH.exec(req.url ?? '');
    if (!match) throw new AppError(404, 'ROUTE_NOT_FOUND', 'Not Found', { detail: 'Use /mud/ws/{user_id}' });
    const userId = decodePathSegment(match[1]);
    const token = presentedToken(req);
    if (!token) throw new UnauthorizedError('Present your session token to open the channel');
    const identity = await this.options.access.authenticate(token);
    if (!identity)
      throw new UnauthorizedError('The credential is invalid, expired or revoked', 'INVALID_CREDENTIAL');
    if (userId !== identity.userId) {
      throw mudError('CHANNEL_FORBIDDEN', 'You can only open your own channel');
    }
    this.options.access.requireReachable();
    return identity;
  }

  private connected(ws: WebSocket, identity: PlayerIdentity): void {
    const player = new PlayerSocket(ws, identity, this.options.access, this.options.logger, () =>
      this.options.clock.now(),
    );
    this.sockets.set(ws, player);
    this.holds.hold(identity.userId);
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('close', () => this.disconnected(ws, player));
    ws.on('error', (err) => this.options.logger.debug({ err }, 'world channel socket error'));
    player.open().catch((err: unknown) => {
      this.options.logger.warn({ err, userId: identity.userId }, 'world channel failed to open');
      ws.close(1011, 'world unavailable');
    });
  }

  private disconnected(ws: WebSocket, player: PlayerSocket): void {
    this.sockets.delete(ws);
    player.closed();
    const userId = player.identity.userId;
    if (!this.holds.drop(userId)) return;
    this.options.access
      .release(userId)
      .catch((err: unknown) =>
        this.options.logger.debug({ err, userId }, 'releasing a channel player failed'),
      );
  }

  private beat(): void {
    const touched = new Set<string>();
    for (const [ws, player] of this.sockets) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
      if (touched.has(player.identity.userId)) continue;
      touched.add(player.identity.userId);
      this.options.access
        .touch(player.identity.userId)
        .catch((err: unknown) => this.options.logger.debug({ err }, 'keeping a channel player failed'));
    }
  }
}

/** The session token of a handshake: `Authorization: Bearer <token>`, else a `bearer.<token>` subprotocol. */
function presentedToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const offered = protocols.find((p) => p.startsWith(BEARER_PROTOCOL));
  return offered ? offered.slice(BEARER_PROTOCOL.length) || undefined : undefined;
}
