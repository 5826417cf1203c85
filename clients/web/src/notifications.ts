import { api } from './api';
import { notificationText, type PlayerNotification } from './notificationText';

/**
 * The notifications panel: lists the latest (`GET /notifications`), then listens on `WS /notifications/ws`
 * (subprotocols `notifications.v1` + `bearer.<token>`), reconnecting with `?after=<newest id>` so nothing is
 * missed; ids dedupe what arrives twice. Opening the panel marks what it shows read.
 */
export class NotificationsPanel {
  private readonly seen = new Map<string, PlayerNotification>();
  private socket?: WebSocket;
  private closed = false;

  constructor(
    private readonly token: string,
    private readonly list: HTMLElement,
    private readonly badge: HTMLElement,
    private readonly panel: HTMLDetailsElement,
  ) {
    panel.addEventListener('toggle', () => {
      if (panel.open) void this.markRead();
    });
  }

  async start(): Promise<void> {
    const page = await api<{ notifications: PlayerNotification[] }>('GET', '/notifications?limit=20', {
      token: this.token,
    });
    for (const n of page.notifications.reverse()) this.add(n);
    this.connect();
  }

  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private connect(): void {
    const newest = [...this.seen.keys()].sort().pop();
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/notifications/ws${newest ? `?after=${newest}` : ''}`;
    const socket = new WebSocket(url, ['notifications.v1', `bearer.${this.token}`]);
    this.socket = socket;
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as { type: string; notification?: PlayerNotification };
      if (frame.type === 'notification' && frame.notification) this.add(frame.notification);
    };
    socket.onclose = () => {
      if (!this.closed) setTimeout(() => this.connect(), 3000);
    };
  }

  private add(n: PlayerNotification): void {
    if (this.seen.has(n.id)) return;
    this.seen.set(n.id, n);
    const entry = document.createElement('li');
    entry.dataset.id = n.id;
    entry.dataset.kind = n.kind;
    entry.textContent = notificationText(n);
    if (!n.read_at) entry.classList.add('unread');
    this.list.prepend(entry);
    this.updateBadge();
    if (this.panel.open) void this.markRead();
  }

  private async markRead(): Promise<void> {
    const ids = [...this.seen.values()]
      .filter((n) => !n.read_at)
      .map((n) => n.id)
      .slice(0, 100);
    if (ids.length === 0) return;
    await api('POST', '/notifications/read', { token: this.token, body: { ids } });
    const now = new Date().toISOString();
    for (const id of ids) this.seen.get(id)!.read_at = now;
    for (const entry of this.list.querySelectorAll('li.unread')) entry.classList.remove('unread');
    this.updateBadge();
  }

  private updateBadge(): void {
    const unread = [...this.seen.values()].filter((n) => !n.read_at).length;
    this.badge.textContent = unread > 0 ? String(unread) : '';
  }
}
