import type { Client } from '@colyseus/core';
import type { PlayerIdentity } from './persistence';
import type { PlayerState } from './state/PlayerState';
import type { PlayerJournal } from './systems/context';
import type { GameEvent } from './systems/events';
import { type MudEvent, narrate } from './systems/narration';

/** One player hosted by an area room: live state, private journal, connected sockets, gateway bookkeeping. */
export interface PlayerSession {
  identity: PlayerIdentity;
  state: PlayerState;
  journal: PlayerJournal;
  clients: Set<Client>;
  /** Events for the sockets, sent as one `events` message per flush. */
  outbox: MudEvent[];
  /** Attached through the action gateway (REST / plain WebSocket): events also go to inbox and presence. */
  remote: boolean;
  lastRemoteAt: number;
  inbox: MudEvent[];
  saving: Promise<void>;
}

/** The Colyseus message carrying a batch of events to a client: `room.onMessage(EVENTS_MESSAGE, (events) => ...)`. */
export const EVENTS_MESSAGE = 'events';

/** Events kept for a gateway player between calls. */
const INBOX_LIMIT = 100;

/**
 * Routes narrated events to the players who witness them. Socket clients get them batched: each player's
 * events collect in an outbox flushed as ONE `events` message at the end of every tick, and at once when
 * the player's own action finishes (before its reply). In a crowded room that is one socket write per
 * player per tick instead of one per event. Gateway players (REST, plain WebSocket) get them in the
 * action's reply while it runs (capture), else in their inbox and on their presence channel.
 */
export class EventDelivery {
  private readonly capture = new Map<string, MudEvent[]>();

  constructor(
    private readonly sessions: ReadonlyMap<string, PlayerSession>,
    private readonly publish: (userId: string, event: MudEvent) => void,
  ) {}

  /** Delivers an event to its audience (one player, or everyone in a room but `except`). */
  deliver(event: GameEvent): void {
    const to = event.to;
    if ('userId' in to) {
      this.deliverTo(this.sessions.get(to.userId), event);
      return;
    }
    for (const session of this.sessions.values()) {
      if (session.state.roomRef === to.roomRef && session.identity.userId !== to.except)
        this.deliverTo(session, event);
    }
  }

  /** Runs `work` (synchronously) collecting the events `userId` receives meanwhile. */
  captured<T>(userId: string, work: () => T): { result: T; events: MudEvent[] } {
    const events: MudEvent[] = [];
    this.capture.set(userId, events);
    try {
      return { result: work(), events };
    } finally {
      this.capture.delete(userId);
    }
  }

  /** Sends `line` to the player's sockets now, after whatever their outbox holds. */
  sendNow(session: PlayerSession, line: MudEvent): void {
    if (session.clients.size === 0) return;
    session.outbox.push(line);
    this.flush(session);
  }

  /** Sends the player's pending events as one message to each of their sockets. */
  flush(session: PlayerSession): void {
    if (session.outbox.length === 0) return;
    const batch = session.outbox.splice(0);
    for (const client of session.clients) client.send(EVENTS_MESSAGE, batch);
  }

  /** Flushes every player's outbox (end of a tick). */
  flushAll(): void {
    for (const session of this.sessions.values()) this.flush(session);
  }

  private deliverTo(session: PlayerSession | undefined, event: GameEvent): void {
    if (!session) return;
    const userId = session.identity.userId;
    const line = narrate(event, userId);
    if (session.clients.size > 0) session.outbox.push(line);
    const captured = this.capture.get(userId);
    if (captured) captured.push(line);
    else if (session.remote) {
      session.inbox.push(line);
      if (session.inbox.length > INBOX_LIMIT) session.inbox.shift();
      this.publish(userId, line);
    }
  }
}
