import {
  type AuthContext,
  type Client,
  type MessageContext,
  Room,
  ServerError,
  matchMaker,
} from '@colyseus/core';
import { Encoder } from '@colyseus/schema';
import pino, { type Logger } from 'pino';
import { type Clock, systemClock } from '../platform/clock';
import {
  type AreaRoomOptions,
  AREA_ROOM_DEFAULTS,
  PLAYER_ROOMS_KEY,
  areaRoomId,
  playerEventsChannel,
} from './areaRoomOptions';
import { type ActionOutcome, type GatewayReply, isReadOnly, snapshotOf } from './actionOutcome';
import { ensureAreaRoom } from './areaRooms';
import { EVENTS_MESSAGE, EventDelivery, type PlayerSession } from './eventDelivery';
import { type AreaDef, type World, areaOf } from './content/world';
import { type Authenticate, type PlayerIdentity, type PlayerStore, newCharacter } from './persistence';
import { playerFromRecord, recordFromPlayer } from './playerRecords';
import { AreaState } from './state/AreaState';
import { ACTION_NAMES, type MudAction, parseAction, runAction } from './systems/actions';
import { combatRound, disengage } from './systems/combat';
import type { SimContext } from './systems/context';
import { runCreatureAi } from './systems/creatureAi';
import { type ActionErrorBody, InvalidActionError, WrongAreaError, toErrorBody } from './systems/errors';
import { placeStartingItems } from './systems/items';
import { type Handoff, enterRoom, leaveRoom, viewRoom } from './systems/movement';
import { narrate, narrateError } from './systems/narration';
import { createRng } from './systems/random';
import { type SpawnStatus, SpawnSystem } from './systems/spawns';
import { regenerate } from './systems/vitals';

/**
 * The room actor of one area. Players, creatures and floor items live in its schema state; a fixed tick
 * (the room's simulation interval, cleared on dispose) drives combat rounds, creature AI, spawns and
 * regeneration. Clients send actions as messages named after the action (`move`, `attack`, ...) or as an
 * `action` envelope; they get what they witness as batched `events` messages (see `EventDelivery`). Moving into another area saves
 * the player and hands them a seat reservation for that area's room.
 */
export class AreaRoom extends Room<{ state: AreaState }> {
  private world!: World;
  private area!: AreaDef;
  private store!: PlayerStore;
  private authenticateToken!: Authenticate;
  private options!: Required<Omit<AreaRoomOptions, 'logger' | 'clock' | 'seed'>> & { seed: number | string };
  private clockSource: Clock = systemClock;
  private log: Logger = pino({ level: 'silent' });
  private sim!: SimContext;
  private spawns!: SpawnSystem;
  private readonly sessions = new Map<string, PlayerSession>();
  /** Saves of players who just left, so a quick rejoin loads what they left with. */
  private readonly leaving = new Map<string, Promise<void>>();
  private readonly delivery = new EventDelivery(this.sessions, (userId, event) =>
    this.presence.publish(playerEventsChannel(userId), event),
  );
  private idCounter = 0;
  private ticks = 0;

  override onCreate(options: AreaRoomOptions): void {
    const area = options.world?.areas.get(options.areaId);
    if (!area) throw new ServerError(4404, `UNKNOWN_AREA: there is no area "${options.areaId}"`);
    this.world = options.world;
    this.area = area;
    this.store = options.store;
    this.authenticateToken = options.authenticate;
    this.clockSource = options.clock ?? systemClock;
    this.log = (options.logger ?? this.log).child({ room: 'area', areaId: area.id });
    this.options = { ...AREA_ROOM_DEFAULTS, ...stripUndefined(options) } as typeof this.options;
    // A crowded area's full state outgrows the 8 KB default encode buffer; size it once instead of regrowing.
    Encoder.BUFFER_SIZE = Math.max(Encoder.BUFFER_SIZE, 256 * 1024);
    this.roomId = areaRoomId(area.id);
    this.autoDispose = false;
    this.maxMessagesPerSecond = this.options.maxMessagesPerSecond;
    this.patchRate = this.options.tickMs;
    this.state = new AreaState({ areaId: area.id, name: area.name, tick: 0 });
    this.sim = this.buildContext(options);
    this.spawns = new SpawnSystem(area, this.world);
    placeStartingItems(this.sim);
    this.spawns.populate(this.sim);

    for (const name of ACTION_NAMES) {
      this.onMessage(name, (client, payload, ctx) =>
        this.onClientAction(client, { ...asObject(payload), action: name }, ctx),
      );
    }
    this.onMessage('action', (client, payload, ctx) => this.onClientAction(client, payload, ctx));
    this.onMessage('*', (client, type) => {
      client.send(EVENTS_MESSAGE, [narrateError('UNKNOWN_ACTION', `Unknown action "${String(type)}".`)]);
    });
    this.setSimulationInterval(() => this.tick(), this.options.tickMs);
    this.clock.setInterval(() => this.saveEveryone(), this.options.saveEveryMs);
  }

  /** Verifies the session token the client joined with (`client.auth.token` in the SDK). */
  override async onAuth(_client: Client, _options: unknown, context: AuthContext): Promise<PlayerIdentity> {
    const identity = context.token ? await this.authenticateToken(context.token) : null;
    if (!identity) throw new ServerError(4401, 'UNAUTHENTICATED: a valid session token is required');
    return identity;
  }

  override async onJoin(client: Client): Promise<void> {
    const identity = client.auth as PlayerIdentity;
    client.userData = { userId: identity.userId };
    try {
      await this.attach(identity, client);
    } catch (error) {
      if (error instanceof WrongAreaError) throw new ServerError(4409, `WRONG_AREA: ${error.areaId}`);
      throw error;
    }
  }

  override async onLeave(client: Client): Promise<void> {
    const session = this.sessions.get((client.userData as { userId: string }).userId);
    if (!session || !session.clients.delete(client)) return;
    if (session.clients.size === 0 && !session.remote) await this.dismiss(session);
  }

  override async onDispose(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((session) => this.dismiss(session)));
  }

  override onUncaughtException(error: Error, methodName: string): void {
    this.log.error({ err: error, cause: error.cause, method: methodName }, 'area room hook failed');
  }

  /**
   * Gateway entry (REST, plain WebSocket): performs `action` for a player, attaching them to this room if
   * they are not here yet. Returns plain JSON so `matchMaker.remoteRoomCall` can carry it across processes.
   * With `backlog` (default true) the reply starts with events the player received since their last call.
   */
  async gatewayPerform(identity: PlayerIdentity, input: unknown, backlog = true): Promise<GatewayReply> {
    try {
      const action = parseAction(input);
      const session = this.sessions.get(identity.userId) ?? (await this.attach(identity));
      session.remote = true;
      session.lastRemoteAt = this.clockSource.now();
      const earlier = backlog ? session.inbox.splice(0) : [];
      const outcome = await this.perform(session, action);
      return { ok: true, outcome: { ...outcome, events: [...earlier, ...outcome.events] } };
    } catch (error) {
      return { ok: false, error: this.errorBody(error) };
    }
  }

  /** Keeps a gateway player attached while their plain-WebSocket channel is open (idle timeout restarts). */
  gatewayTouch(userId: string): boolean {
    const session = this.sessions.get(userId);
    if (!session?.remote) return false;
    session.lastRemoteAt = this.clockSource.now();
    return true;
  }

  /**
   * A gateway player's channel closed: they stop being a gateway player and, without an SDK socket, leave the
   * area now (saved), instead of after `remoteIdleMs`.
   */
  async gatewayRelease(userId: string): Promise<boolean> {
    const session = this.sessions.get(userId);
    if (!session?.remote) return false;
    session.remote = false;
    session.inbox = [];
    if (session.clients.size === 0) await this.dismiss(session);
    return true;
  }

  /** Live and pending spawns of this area (`GET /mud/spawns/status`). */
  spawnStatus(): SpawnStatus {
    return this.spawns.status(this.sim);
  }

  private async onClientAction(client: Client, input: unknown, ctx: MessageContext): Promise<unknown> {
    const userId = (client.userData as { userId: string } | undefined)?.userId ?? '';
    const session = this.sessions.get(userId);
    try {
      if (!session || !session.clients.has(client)) throw new InvalidActionError('You are not in this area.');
      await this.perform(session, parseAction(input));
      return { ok: true };
    } catch (error) {
      const body = this.errorBody(error);
      if (ctx.id !== undefined) return ctx.reject(body);
      if (session) this.delivery.flush(session);
      client.send(EVENTS_MESSAGE, [{ ...narrateError(body.code, body.message), data: { ...body } }]);
      return undefined;
    }
  }

  /** Runs one action for a hosted player, capturing their events; completes handoffs and durable saves. */
  private async perform(session: PlayerSession, action: MudAction): Promise<ActionOutcome> {
    const userId = session.identity.userId;
    const { result, events } = this.delivery.captured(userId, () => runAction(this.sim, userId, action));
    const handoff = result ?? undefined;
    if (handoff) await this.handOff(session, handoff);
    else if (this.options.durableActions && !isReadOnly(action)) {
      const touched = action.action === 'give' ? this.sessionsIn(session.state.roomRef) : [session];
      await Promise.all(touched.map((s) => this.persist(s)));
    }
    // The actor's own events go out before the reply; everyone else's with the tick.
    this.delivery.flush(session);
    return {
      userId,
      areaId: handoff?.areaId ?? this.area.id,
      roomRef: handoff?.roomRef ?? session.state.roomRef,
      events,
      player: snapshotOf(session.state),
      ...(handoff ? { handoff } : {}),
    };
  }

  /** Hosts a player here: loads their character (new ones start at the world's start room). */
  private async attach(identity: PlayerIdentity, client?: Client): Promise<PlayerSession> {
    const existing = this.sessions.get(identity.userId);
    if (existing) {
      if (client) {
        existing.clients.add(client);
        this.delivery.deliver({
          type: 'room.look',
          room: viewRoom(this.sim, existing.state.roomRef),
          to: { userId: identity.userId },
        });
        this.delivery.flush(existing);
      }
      return existing;
    }
    await this.leaving.get(identity.userId);
    const record =
      (await this.store.load(identity.userId)) ?? newCharacter(this.world, identity, this.clockSource.now());
    if (!this.world.rooms.has(record.roomRef)) record.roomRef = this.area.respawnRoom;
    if (areaOf(record.roomRef) !== this.area.id) throw new WrongAreaError(areaOf(record.roomRef));
    const raced = this.sessions.get(identity.userId);
    if (raced) return this.attach(identity, client);
    const { state, journal } = playerFromRecord(record);
    const session: PlayerSession = {
      identity,
      state,
      journal,
      clients: new Set(client ? [client] : []),
      remote: false,
      outbox: [],
      lastRemoteAt: this.clockSource.now(),
      inbox: [],
      saving: Promise.resolve(),
    };
    this.sessions.set(identity.userId, session);
    this.state.players.set(identity.userId, state);
    await this.presence.hset(PLAYER_ROOMS_KEY, identity.userId, this.roomId);
    enterRoom(this.sim, state, state.roomRef);
    this.delivery.flush(session);
    return session;
  }

  /** Saves a player and removes them from the area (last socket gone, idle gateway player, dispose). */
  private async dismiss(session: PlayerSession): Promise<void> {
    const userId = session.identity.userId;
    if (this.sessions.get(userId) !== session) return;
    disengage(this.sim, session.state);
    leaveRoom(this.sim, session.state, '');
    this.detach(session);
    const saved = this.persist(session);
    this.leaving.set(userId, saved);
    try {
      await saved;
    } finally {
      if (this.leaving.get(userId) === saved) this.leaving.delete(userId);
    }
  }

  private detach(session: PlayerSession): void {
    const userId = session.identity.userId;
    this.sessions.delete(userId);
    this.state.players.delete(userId);
    void this.presence.hdel(PLAYER_ROOMS_KEY, userId);
  }

  /**
   * Completes a move into another area: the player leaves this room's state, is saved at the new room, and
   * each of their sockets gets an `area.handoff` event carrying a seat reservation for the target area room
   * (`client.consumeSeatReservation(event.data.reservation)` in the SDK).
   */
  private async handOff(session: PlayerSession, to: Handoff): Promise<void> {
    this.detach(session);
    session.state.roomRef = to.roomRef;
    await this.persist(session);
    const listing = await ensureAreaRoom(to.areaId);
    this.delivery.flush(session);
    for (const client of session.clients) {
      const reservation = await matchMaker.reserveSeatFor(listing, {}, client.auth);
      const line = narrate(
        {
          type: 'area.handoff',
          areaId: to.areaId,
          roomRef: to.roomRef,
          reservation,
          to: { userId: session.identity.userId },
        },
        session.identity.userId,
      );
      client.send(EVENTS_MESSAGE, [line]);
    }
  }

  /** Queues a save of the player's current state behind any save already in flight. */
  private persist(session: PlayerSession): Promise<void> {
    const record = recordFromPlayer(session.state, session.journal, this.clockSource.now());
    session.saving = session.saving.catch(() => undefined).then(() => this.store.save(record));
    return session.saving;
  }

  private saveEveryone(): void {
    for (const session of this.sessions.values()) {
      this.persist(session).catch((err) =>
        this.log.error({ err, userId: session.identity.userId }, 'autosave failed'),
      );
    }
  }

  /**
   * One simulation tick. The synchronised `state.tick` advances only on AI steps: a field changing every tick
   * would make every tick a patch to every client even in a quiet room. Events of the tick go out batched.
   */
  private tick(): void {
    const tick = (this.ticks += 1);
    if (tick % this.options.combatEvery === 0) combatRound(this.sim);
    if (tick % this.options.aiEvery === 0) {
      this.state.tick = tick;
      runCreatureAi(this.sim);
      this.spawns.run(this.sim);
      this.dismissIdleRemotes();
    }
    if (tick % this.options.regenEvery === 0) regenerate(this.sim);
    this.delivery.flushAll();
  }

  private dismissIdleRemotes(): void {
    const cutoff = this.clockSource.now() - this.options.remoteIdleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.remote && session.clients.size === 0 && session.lastRemoteAt < cutoff) {
        this.dismiss(session).catch((err) => this.log.error({ err }, 'saving an idle player failed'));
      }
    }
  }

  private sessionsIn(roomRef: string): PlayerSession[] {
    return [...this.sessions.values()].filter((s) => s.state.roomRef === roomRef);
  }

  private errorBody(error: unknown): ActionErrorBody {
    const body = toErrorBody(error);
    if (body.status >= 500) this.log.error({ err: error }, 'action failed');
    return body;
  }

  private buildContext(options: AreaRoomOptions): SimContext {
    const journals = (userId: string) =>
      this.sessions.get(userId)?.journal ?? { quests: new Map(), relations: new Map() };
    return {
      world: this.world,
      area: this.area,
      state: this.state,
      rng: createRng(`${options.seed ?? AREA_ROOM_DEFAULTS.seed}:${this.area.id}`),
      tuning: {
        combatEvery: this.options.combatEvery,
        aiEvery: this.options.aiEvery,
        regenEvery: this.options.regenEvery,
      },
      minds: new Map(),
      journal: journals,
      emit: (event) => this.delivery.deliver(event),
      nextId: (prefix) => `${prefix}${++this.idCounter}`,
      onCreatureRemoved: (spawnPoint) => this.spawns.creatureRemoved(this.sim, spawnPoint),
    };
  }
}

function asObject(payload: unknown): Record<string, unknown> {
  return payload !== null && typeof payload === 'object' && !Array.isArray(payload)
    ? (payload as Record<string, unknown>)
    : {};
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
