import { AsyncLocalStorage } from 'node:async_hooks';
import { type Client, Protocol, getMessageBytes } from '@colyseus/core';
import { Packr } from 'msgpackr';
import type { PlayerIdentity } from './persistence';
import type { SavedFields } from './savedFields';
import type { PlayerState } from './state/PlayerState';
import { onRoomMove } from './state/roomMoves';
import type { PlayerJournal } from './rules/context';
import type { GameEvent } from './text/events';
import { type MudEvent, narrate } from './text/narration';

/** One player hosted by an area room: live state, private journal, connected sockets, gateway bookkeeping. */
export interface PlayerSession {
  identity: PlayerIdentity;
  state: PlayerState;
  journal: PlayerJournal;
  clients: Set<Client>;
  /** Events for the sockets, each already msgpack-encoded, sent as one `events` message per flush. */
  outbox: Uint8Array[];
  /** Attached through the action gateway (REST / plain WebSocket): events also go to inbox and presence. */
  remote: boolean;
  lastRemoteAt: number;
  inbox: MudEvent[];
  saving: Promise<void>;
  /**
   * The character as the last durable save left it, field by field (rooms/savedFields.ts): a save writes only the
   * fields that differ from it, and nothing when none does. Undefined until a save or a faithful load (the next
   * save then writes the whole record) and again after a failed save.
   */
  saved?: SavedFields;
}

/** The Colyseus message carrying a batch of events to a client: `room.onMessage(EVENTS_MESSAGE, (events) => ...)`. */
export const EVENTS_MESSAGE = 'events';

/** Events kept for a gateway player between calls. */
const INBOX_LIMIT = 100;

/** The same msgpack flavour Colyseus uses for messages (plain maps, no record extension). */
const packr = new Packr({ useRecords: false });

/**
 * A narrated event and its msgpack encoding, shared by every viewer who reads the same text. The encoding is made
 * when a socket first needs it: a player without one (telnet, REST, plain WebSocket) reads the event itself.
 */
interface Line {
  event: MudEvent;
  packed?: Uint8Array;
}

/**
 * Routes narrated events to the players who witness them. Socket clients get them batched: each player's
 * events collect in an outbox flushed as ONE `events` message at the end of every tick, and at once when
 * the player's own action finishes (before its reply). In a crowded room that is one socket write per
 * player per tick instead of one per event, and an event is narrated and encoded once for all the
 * bystanders (only the players it names read it differently). Gateway players (REST, plain WebSocket) get
 * events in the action's reply while it runs (capture), else in their inbox and on their presence channel.
 */
export class EventDelivery {
  /** The action running in this call chain (its player and the events they received meanwhile). */
  private readonly capture = new AsyncLocalStorage<{ userId: string; events: MudEvent[] }>();
  /** Events gateway players witnessed since the last flush, published on their channels with the tick. */
  private unpublished: Array<{ userId: string; event: MudEvent }> = [];

  /** The sessions standing in each room, kept up to date by their moves (rooms/state/roomMoves.ts). */
  private byRoom = new Map<string, Set<PlayerSession>>();
  /** `membership()` when `byRoom` was built: a different value means players joined or left since. */
  private indexedMembership = -1;
  /** Each session's place in the session table (the order it joined in) since `byRoom` was built. */
  private readonly position = new WeakMap<PlayerSession, number>();
  private nextPosition = 0;

  /**
   * `membership()` changes whenever a session joins or leaves `sessions` (the room's `PlayerSessions.changes`);
   * by default the table's size, enough for a table nobody changes.
   */
  constructor(
    private sessions: ReadonlyMap<string, PlayerSession>,
    private readonly publish: (userId: string, event: MudEvent) => void,
    private membership: () => number = () => this.sessions.size,
  ) {}

  /** Points delivery at the room's live session table (built after the delivery it uses). */
  useSessions(sessions: ReadonlyMap<string, PlayerSession>, membership: () => number): void {
    this.sessions = sessions;
    this.membership = membership;
    this.indexedMembership = -1;
  }

  /** The sessions whose player stands in `roomRef` now. */
  private sessionsIn(roomRef: string): Iterable<PlayerSession> {
    const membership = this.membership();
    if (membership !== this.indexedMembership) this.index(membership);
    return this.byRoom.get(roomRef) ?? NO_SESSIONS;
  }

  /**
   * The players standing in `roomRef` now, in the order of the session table (the order they joined the area, which
   * is `AreaState.players`'s order too): what `playersIn` in rules/context.ts finds by scanning the whole area.
   */
  playersIn(roomRef: string): PlayerState[] {
    const here: PlayerSession[] = [];
    for (const session of this.sessionsIn(roomRef)) if (session.state.roomRef === roomRef) here.push(session);
    if (here.length > 1) here.sort((a, b) => (this.position.get(a) ?? 0) - (this.position.get(b) ?? 0));
    return here.map((session) => session.state);
  }

  /**
   * `session` has just joined the session table (or left it), and `membership()` moved on by one for it. An index
   * that was current takes the change as it is, instead of being rebuilt at the next lookup: a crowd joining or
   * leaving one by one would otherwise rebuild it once per player, over the whole area each time.
   */
  changed(session: PlayerSession, joined: boolean): void {
    const membership = this.membership();
    if (this.indexedMembership !== membership - 1) return;
    this.indexedMembership = membership;
    if (joined) this.track(this.byRoom, session);
    else this.byRoom.get(session.state.roomRef)?.delete(session);
  }

  private index(membership: number): void {
    const byRoom = new Map<string, Set<PlayerSession>>();
    this.byRoom = byRoom;
    this.indexedMembership = membership;
    this.nextPosition = 0;
    for (const session of this.sessions.values()) this.track(byRoom, session);
  }

  /** Indexes `session` in its room, after everyone indexed so far, and follows its moves. */
  private track(byRoom: Map<string, Set<PlayerSession>>, session: PlayerSession): void {
    const userId = session.identity.userId;
    this.position.set(session, this.nextPosition++);
    add(byRoom, session.state.roomRef, session);
    onRoomMove(session.state, (from, to) => {
      // A session that left the table (or a table rebuilt since) is no longer indexed here.
      if (this.byRoom !== byRoom || this.sessions.get(userId) !== session) return;
      byRoom.get(from)?.delete(session);
      add(byRoom, to, session);
    });
  }

  /** Delivers an event to its audience (one player, everyone in a room but `except`, or the whole area). */
  deliver(event: GameEvent): void {
    const to = event.to;
    if ('userId' in to) {
      this.deliverTo(this.sessions.get(to.userId), event);
      return;
    }
    const named = namedPlayers(event);
    const inRoom = 'roomRef' in to ? to : undefined;
    let bystanders: Line | undefined;
    // An event for one room goes through that room's sessions only, not the whole area's.
    const audience = inRoom ? this.sessionsIn(inRoom.roomRef) : this.sessions.values();
    for (const session of audience) {
      const userId = session.identity.userId;
      if (inRoom && (session.state.roomRef !== inRoom.roomRef || userId === inRoom.except)) continue;
      if (named.has(userId)) this.deliverTo(session, event);
      else this.deliverLine(session, (bystanders ??= lineOf(event, '')));
    }
  }

  /**
   * Runs `work` collecting the events `userId` receives from it. An async `work` (an action awaiting the marketplace)
   * keeps collecting until its promise settles: await `result` before reading `events`. Only events of `work`'s own
   * call chain are collected, so a tick running while it waits delivers its events as usual.
   */
  captured<T>(userId: string, work: () => T): { result: T; events: MudEvent[] } {
    const events: MudEvent[] = [];
    return { result: this.capture.run({ userId, events }, work), events };
  }

  /** Sends the player's pending events as one message to each of their sockets. */
  flush(session: PlayerSession): void {
    if (session.outbox.length === 0) return;
    const message = eventsMessage(session.outbox.splice(0));
    for (const client of session.clients) client.enqueueRaw(message);
  }

  /**
   * Flushes every player's outbox (end of a tick). Bystanders of one room usually wait for the very same lines
   * (what everyone there witnessed since the last tick): their message is built once and its bytes shared.
   */
  flushAll(): void {
    this.publishWitnessed();
    const built = new BuiltMessages();
    for (const session of this.sessions.values()) {
      if (session.outbox.length === 0) continue;
      const message = built.messageOf(session.outbox.splice(0));
      for (const client of session.clients) client.enqueueRaw(message);
    }
  }

  /**
   * Publishes what gateway players witnessed since the last flush, in order. Their channels hear it with the tick,
   * like the sockets' `events`: a telnet terminal then gets everything it witnessed in one tick in one write,
   * instead of a write for every action it witnessed.
   */
  publishWitnessed(): void {
    if (this.unpublished.length === 0) return;
    const waiting = this.unpublished;
    this.unpublished = [];
    for (const { userId, event } of waiting) this.publish(userId, event);
  }

  private deliverTo(session: PlayerSession | undefined, event: GameEvent): void {
    if (session) this.deliverLine(session, lineOf(event, session.identity.userId));
  }

  private deliverLine(session: PlayerSession, line: Line): void {
    const userId = session.identity.userId;
    if (session.clients.size > 0) session.outbox.push((line.packed ??= packr.pack(line.event)));
    const captured = this.capture.getStore();
    if (captured?.userId === userId) captured.events.push(line.event);
    else if (session.remote) {
      session.inbox.push(line.event);
      if (session.inbox.length > INBOX_LIMIT) session.inbox.shift();
      this.unpublished.push({ userId, event: line.event });
    }
  }
}

const NO_SESSIONS: ReadonlySet<PlayerSession> = new Set();

function add(byRoom: Map<string, Set<PlayerSession>>, roomRef: string, session: PlayerSession): void {
  const here = byRoom.get(roomRef);
  if (here) here.add(session);
  else byRoom.set(roomRef, new Set([session]));
}

function lineOf(event: GameEvent, viewer: string): Line {
  return { event: narrate(event, viewer) };
}

/** Players an event names (actor, target, killer, recipient): their narration differs ("you"). */
function namedPlayers(event: GameEvent): Set<string> {
  const named = new Set<string>();
  for (const [key, value] of Object.entries(event)) {
    if (key === 'to' || value === null || typeof value !== 'object') continue;
    const userId = (value as { userId?: unknown }).userId;
    if (typeof userId === 'string') named.add(userId);
  }
  return named;
}

/** The Colyseus frame header of an `events` message (ROOM_DATA and the message type), the same for every one. */
const EVENTS_FRAME = getMessageBytes.raw(Protocol.ROOM_DATA, EVENTS_MESSAGE);

/**
 * The Colyseus `events` message carrying already-encoded events: a msgpack array header followed by the
 * encoded elements, framed as a regular ROOM_DATA message (clients decode it like any `send`). One allocation.
 */
function eventsMessage(packed: Uint8Array[]): Buffer {
  const n = packed.length;
  const header =
    n < 16
      ? [0x90 | n]
      : n < 0x10000
        ? [0xdc, n >> 8, n & 0xff]
        : [0xdd, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  let length = EVENTS_FRAME.length + header.length;
  for (const line of packed) length += line.length;
  const message = Buffer.allocUnsafe(length);
  EVENTS_FRAME.copy(message, 0);
  let offset = EVENTS_FRAME.length;
  for (const byte of header) message[offset++] = byte;
  for (const line of packed) {
    message.set(line, offset);
    offset += line.length;
  }
  return message;
}

/** Messages already built during one flush, found again by their lines (the same encoded lines, in order). */
class BuiltMessages {
  /** Per first line, the messages built for outboxes starting with it; a few, so a lookup stays cheap. */
  private readonly byFirst = new Map<Uint8Array, Array<{ lines: Uint8Array[]; message: Buffer }>>();

  messageOf(lines: Uint8Array[]): Buffer {
    const candidates = this.byFirst.get(lines[0]);
    const found = candidates?.find((built) => sameLines(built.lines, lines));
    if (found) return found.message;
    const message = eventsMessage(lines);
    if (!candidates) this.byFirst.set(lines[0], [{ lines, message }]);
    else if (candidates.length < MAX_VARIANTS) candidates.push({ lines, message });
    return message;
  }
}

/** Different outboxes starting with one line remembered per flush (beyond that, messages are built each time). */
const MAX_VARIANTS = 8;

function sameLines(a: Uint8Array[], b: Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
