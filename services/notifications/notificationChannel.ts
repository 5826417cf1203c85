import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { UnauthorizedError, decodePathSegment } from '../../platform/errors';
import { refuseUpgrade } from '../../platform/http/upgradeRefusal';
import type { UpgradeRoute } from '../../platform/platform';
import type { DeliveryHub } from './deliveryHub';
import { notificationError } from './errors';
import type { NotificationService } from './notificationService';
import { presentNotification } from './presenters';
import type { NotificationView } from './schemas';

/** The subprotocol of the channel; browsers offer it with `bearer.<token>`. */
export const NOTIFICATION_PROTOCOL = 'notifications.v1';

const BEARER_PROTOCOL = 'bearer.';
const STREAM_PATH = /^\/notifications\/ws(?:\/([^/?#]+))?\/?(?:\?(.*))?$/;
const OBJECT_ID = /^[0-9a-f]{24}$/;

/** Who a presented token is: a user, the service token (not a user), or nobody. */
export type ChannelAuthenticate = (token: string) => Promise<{ userId: string } | 'service' | null>;

/** A frame the server sends on the notification channel. */
export type NotificationFrame =
  | { type: 'ready'; user_id: string; unread: number }
  | { type: 'notification'; notification: NotificationView };

export interface NotificationChannelOptions {
  service: NotificationService;
  hub: DeliveryHub;
  authenticate: ChannelAuthenticate;
  logger: Logger;
  /** Ping every this many ms and drop sockets that missed one. Default 30 s. */
  heartbeatMs?: number;
}

/**
 * `WS /notifications/ws` (or `/notifications/ws/{user_id}`): the signed-in user's own notification stream. The
 * handshake carries the session token (`Authorization: Bearer`, or the subprotocols `notifications.v1` +
 * `bearer.<token>`); a missing or bad token is 401 and another user's stream (or the service token) 403, before
 * the upgrade. After `ready`, every new notification arrives as a `notification` frame; `?after=<id>` first replays
 * the ones stored after that id (oldest first), so a reconnecting client misses nothing and dedupes on ids.
 */
export class NotificationChannel implements UpgradeRoute {
  readonly path = /^\/notifications\/ws(\/|\?|$)/;
  private readonly server: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private readonly alive = new WeakSet<WebSocket>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly options: NotificationChannelOptions) {
    this.server = new WebSocketServer({
      noServer: true,
      maxPayload: 4 * 1024,
      handleProtocols: (offered) => (offered.has(NOTIFICATION_PROTOCOL) ? NOTIFICATION_PROTOCOL : false),
    });
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.admit(req).then(
      ({ userId, after }) =>
        this.server.handleUpgrade(req, socket, head, (ws) => void this.connected(ws, userId, after)),
      (error: unknown) => refuseUpgrade(socket, req, error, this.options.logger),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    for (const ws of this.sockets) ws.close(1001, 'server stopping');
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
    for (const ws of this.sockets) ws.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Checks the handshake: path, token, own stream; answers the user and the replay cursor. */
  private async admit(req: IncomingMessage): Promise<{ userId: string; after?: string }> {
    const match = STREAM_PATH.exec(req.url ?? '');
    if (!match) throw notificationError('ROUTE_NOT_FOUND', 'Use /notifications/ws');
    const token = presentedToken(req);
    if (!token) throw new UnauthorizedError('Present your session token to open your notifications');
    const who = await this.options.authenticate(token);
    if (!who)
      throw new UnauthorizedError('The credential is invalid, expired or revoked', 'INVALID_CREDENTIAL');
    if (who === 'service') {
      throw notificationError('CHANNEL_FORBIDDEN', 'Notifications belong to users; sign in as one');
    }
    if (match[1] !== undefined && decodePathSegment(match[1]) !== who.userId) {
      throw notificationError('CHANNEL_FORBIDDEN', 'You can only open your own notifications');
    }
    const after = new URLSearchParams(match[2] ?? '').get('after') ?? undefined;
    return { userId: who.userId, after: after && OBJECT_ID.test(after) ? after : undefined };
  }

  /** Listens first, then replays and greets, so nothing stored meanwhile is missed (duplicates are possible). */
  private async connected(ws: WebSocket, userId: string, after?: string): Promise<void> {
    this.sockets.add(ws);
    this.alive.add(ws);
    const send = (frame: NotificationFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const held: NotificationView[] = [];
    let replaying = true;
    const stop = this.options.hub.listen(userId, (notification) =>
      replaying ? held.push(notification) : send({ type: 'notification', notification }),
    );
    ws.on('pong', () => this.alive.add(ws));
    ws.on('close', () => (stop(), this.sockets.delete(ws)));
    ws.on('error', (err) => this.options.logger.debug({ err }, 'notification socket error'));
    ws.on('message', () => undefined);
    try {
      const missed = after ? await this.options.service.since(userId, after) : [];
      const sent = new Set(missed.map((record) => record._id.toHexString()));
      send({ type: 'ready', user_id: userId, unread: await this.options.service.unreadCount(userId) });
      for (const record of missed) send({ type: 'notification', notification: presentNotification(record) });
      replaying = false;
      for (const notification of held) {
        if (!sent.has(notification.id)) send({ type: 'notification', notification });
      }
    } catch (err) {
      this.options.logger.warn({ err, userId }, 'notification stream failed to open');
      ws.close(1011, 'notifications unavailable');
    }
  }

  private beat(): void {
    for (const ws of this.sockets) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
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
