import WebSocket from 'ws';
import type { NotificationFrame } from '../../services/notifications/notificationChannel';
import { socketOpened } from './handshake';

/** How a refused handshake looked: its status and problem body. */
export interface HandshakeRefusal {
  status?: number;
  body?: Record<string, unknown>;
}

/** A client of `WS /notifications/ws` that records frames and lets a test wait for them (with a timeout). */
export class NotificationSocket {
  readonly frames: NotificationFrame[] = [];
  private waiters: Array<{ match: (f: NotificationFrame) => boolean; resolve: () => void }> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as NotificationFrame);
      this.waiters = this.waiters.filter((w) => (this.frames.some(w.match) ? (w.resolve(), false) : true));
    });
  }

  /**
   * Opens `path` (default `/notifications/ws`) presenting `token` as a bearer header or, like a browser, as the
   * `bearer.<token>` subprotocol; resolves after the `ready` frame, rejects with the refusal's status and body.
   */
  static open(
    url: string,
    token?: string,
    options: { path?: string; via?: 'header' | 'subprotocol' } = {},
  ): Promise<NotificationSocket> {
    const address = `${url.replace(/^http/, 'ws')}${options.path ?? '/notifications/ws'}`;
    const socket =
      options.via === 'subprotocol'
        ? new WebSocket(address, ['notifications.v1', `bearer.${token}`])
        : new WebSocket(address, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const client = new NotificationSocket(socket);
    return socketOpened(socket)
      .then(() => client.waitFor((f) => f.type === 'ready'))
      .then(() => client);
  }

  /** Resolves once a frame matching `match` has arrived (now or later); rejects after `timeoutMs`. */
  waitFor(match: (f: NotificationFrame) => boolean, timeoutMs = 5000): Promise<void> {
    if (this.frames.some(match)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching frame in ${JSON.stringify(this.frames)}`)),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Resolves once `count` notification frames have arrived. */
  waitForNotifications(count: number, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.notifications().length >= count, timeoutMs);
  }

  /** The notifications received, in order. */
  notifications() {
    return this.frames.flatMap((f) => (f.type === 'notification' ? [f.notification] : []));
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

/** The refusal of a handshake that was expected to fail. */
export function refusalOf(opening: Promise<unknown>): Promise<HandshakeRefusal> {
  return opening.then(
    () => {
      throw new Error('expected the handshake to be refused');
    },
    (error: HandshakeRefusal) => ({ status: error.status, body: error.body }),
  );
}
