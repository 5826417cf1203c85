import {
  type AuthContext,
  type Client,
  type MessageContext,
  type RoomException,
  type RoomMethodName,
  Room,
  ServerError,
} from '@colyseus/core';
import pino, { type Logger } from 'pino';
import { type Clock, systemClock } from '../platform/clock';
import {
  type AreaRoomOptions,
  AREA_ROOM_DEFAULTS,
  areaRoomId,
  givenOptions,
  playerEventsChannel,
  sendsAt,
} from './areaRoomOptions';
import { type ActionOutcome, type GatewayReply, isReadOnly, snapshotOf } from './actionOutcome';
import { handOff } from './handoff';
import { EVENTS_MESSAGE, EventDelivery, type PlayerSession } from './eventDelivery';
import type { AreaDef, World } from './content/world';
import type { LiveTake } from './outsideChanges';
import type { Authenticate, PlayerIdentity } from './persistence';
import { PlayerSessions } from './playerSessions';
import { AreaState } from './state/AreaState';
import {
  ACTION_NAMES,
  type ActionTurn,
  type MudAction,
  namedAction,
  parseAction,
  runAction,
} from './commands/actions';
import { MarketDesk, type TradeAction, type WorldMarket } from './rules/marketTrades';
import { combatRound } from './rules/combat';
import type { SimContext } from './rules/context';
import { runCreatureAi } from './rules/creatures/creatureAi';
import { type ActionErrorBody, InvalidActionError, WrongAreaError, toErrorBody } from './rules/errors';
import { narrateError } from './text/narration';
import { createRng } from './rules/random';
import { restock } from './rules/merchants';
import { ResourceSystem } from './rules/resources';
import { type SpawnStatus, SpawnSystem } from './rules/creatures/spawns';
import { regenerate } from './rules/vitals';
import { listenToRuleEvents, ruleEventBus } from './rules/ruleEvents';
import { NO_WORLD_EVENTS } from './worldEvents';
import { RoomVisibility } from './visibility';
import { measuredTick } from './tickMetrics';
import { holdWrites, holdWritesThisTurn } from './socketWrites';
import { sendOnlyNonEmptyPatches } from './viewPatches';
import { logHookFailure } from './hookFailures';
import { askMinds } from './mindAnswers';
import type { MindRequest, Minds } from './minds';
import type { MudEvent } from './text/narration';
import type { MarketEventBody } from './text/events';

type Settings = Required<
  Omit<AreaRoomOptions, 'logger' | 'clock' | 'seed' | 'ticker' | 'events' | 'market' | 'minds'>
> & {
  seed: number | string;
};

/**
 * The room actor of one area. Players, creatures and floor items live in its schema state; a fixed tick
 * (the room's simulation interval, or an injected `Ticker`) drives combat rounds, creature AI, spawns,
 * resource regrowth and regeneration. Clients send actions as messages named after the action (`move`,
 * `attack`, ...) or as an `action` envelope; they get what they witness as batched `events` messages (see
 * `EventDelivery`) and the part of the state their character can perceive (`RoomVisibility`). Moving into
 * another area saves the player and hands them a seat reservation for that area's room. The player
 * lifecycle (attach, dismiss, saves) lives in `PlayerSessions`.
 */
export class AreaRoom extends Room<{ state: AreaState }> {
  private world!: World;
  private area!: AreaDef;
  private settings!: Settings;
  private authenticateToken!: Authenticate;
  private clockSource: Clock = systemClock;
  private log: Logger = pino({ level: 'silent' });
  private sim!: SimContext;
  private spawns!: SpawnSystem;
  private resources!: ResourceSystem;
  private players!: PlayerSessions;
  private visibility!: RoomVisibility;
  private delivery!: EventDelivery;
  private stopTicker?: () => void;
  private desk?: MarketDesk;
  private market: () => WorldMarket | undefined = () => undefined;
  private idCounter = 0;
  private ticks = 0;
  private minds?: Minds;
  /** What the running action asked the minds (`SimContext.consult`); answered once the action is done. */
  private consulted: MindRequest[] = [];

  override onCreate(options: AreaRoomOptions): void {
    const area = options.world?.areas.get(options.areaId);
    if (!area) throw new ServerError(4404, `UNKNOWN_AREA: there is no area "${options.areaId}"`);
    this.world = options.world;
    this.area = area;
    this.clockSource = options.clock ?? systemClock;
    this.authenticateToken = options.authenticate;
    this.minds = options.minds;
    this.log = (options.logger ?? this.log).child({ room: 'area', areaId: area.id });
    if (options.market) this.market = options.market;
    this.settings = { ...AREA_ROOM_DEFAULTS, ...givenOptions(options) } as Settings;
    this.roomId = areaRoomId(area.id);
    this.autoDispose = false;
    this.maxMessagesPerSecond = this.settings.maxMessagesPerSecond;
    this.patchRate = this.settings.tickMs;
    this.state = new AreaState({ areaId: area.id, name: area.name, tick: 0 });
    sendOnlyNonEmptyPatches(this);
    this.visibility = new RoomVisibility(this.state, (id) => this.sim.minds.get(id)?.hidden === true);
    this.delivery = new EventDelivery(new Map(), (userId, event) =>
      this.presence.publish(playerEventsChannel(userId), event),
    );
    this.sim = this.buildContext(options);
    listenToRuleEvents(this.sim);
    this.players = new PlayerSessions({
      world: this.world,
      area,
      store: options.store,
      authenticate: options.authenticate,
      clock: this.clockSource,
      sim: this.sim,
      delivery: this.delivery,
      visibility: this.visibility,
      presence: () => this.presence,
      roomId: () => this.roomId,
      log: this.log,
      standings: options.standings,
    });
    this.delivery.useSessions(this.players.all, () => this.players.changes);
    this.spawns = new SpawnSystem(area, this.world);
    this.resources = new ResourceSystem(area, this.world);
    this.resources.populate(this.sim);
    this.spawns.populate(this.sim);

    for (const name of ACTION_NAMES) {
      this.onMessage(name, (client, payload, ctx) =>
        this.onClientAction(client, namedAction(name, payload), ctx),
      );
    }
    this.onMessage('action', (client, payload, ctx) => this.onClientAction(client, payload, ctx));
    this.onMessage('*', (client, type) => {
      client.send(EVENTS_MESSAGE, [narrateError('UNKNOWN_ACTION', `Unknown action "${String(type)}".`)]);
    });
    if (options.ticker) this.stopTicker = options.ticker.register(() => this.tick(), this.settings.tickMs);
    else {
      this.setSimulationInterval(
        measuredTick(area.id, this.settings.tickMs, () => this.tick()),
        this.settings.tickMs,
      );
      // The tick sends the patches, with the events (see tick); a manually stepped room (tests) keeps
      // Colyseus's patch interval too, so a test sees an action's state change without stepping the world.
      this.patchRate = null;
    }
    this.clock.setInterval(() => this.players.saveEveryone(), this.settings.saveEveryMs);
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
      await this.players.attach(identity, client);
    } catch (error) {
      if (error instanceof WrongAreaError) throw new ServerError(4409, `WRONG_AREA: ${error.areaId}`);
      throw error;
    }
  }

  override async onLeave(client: Client): Promise<void> {
    await this.players.clientLeft(client);
  }

  override async onDispose(): Promise<void> {
    this.stopTicker?.();
    this.delivery.publishWitnessed();
    await this.players.dismissAll();
  }

  /** Logs a failed hook with the player and the message that caused it (for `onMessage` failures). */
  override onUncaughtException(error: RoomException, methodName: RoomMethodName): void {
    logHookFailure(this.log, error, methodName);
  }

  /**
   * Gateway entry (REST, plain WebSocket): performs `action` for a player, attaching them to this room if
   * they are not here yet. Returns plain JSON so `matchMaker.remoteRoomCall` can carry it across processes.
   * With `backlog` (default true) a successful reply starts with the events the player received since their
   * last call; a refused action leaves those events waiting for the next call (each is delivered once). The action
   * was parsed where it entered (the gateway's caller); presence carries it here as plain JSON.
   */
  async gatewayPerform(identity: PlayerIdentity, action: MudAction, backlog = true): Promise<GatewayReply> {
    try {
      const session = this.players.get(identity.userId) ?? (await this.players.attach(identity));
      session.remote = true;
      session.lastRemoteAt = this.clockSource.now();
      // Only what was waiting before the action comes before its events; what happens while the action is saved
      // (a hen wandering in) is later than the action, so it waits for the next call.
      const waiting = session.inbox.length;
      const outcome = await this.perform(session, action);
      const earlier = backlog ? session.inbox.splice(0, waiting) : [];
      return { ok: true, outcome: { ...outcome, events: [...earlier, ...outcome.events] } };
    } catch (error) {
      return { ok: false, error: this.errorBody(error, identity.userId, action) };
    }
  }

  /** Keeps a gateway player attached while their plain-WebSocket channel is open (idle timeout restarts). */
  gatewayTouch(userId: string): boolean {
    const session = this.players.get(userId);
    if (!session?.remote) return false;
    session.lastRemoteAt = this.clockSource.now();
    return true;
  }

  /**
   * A gateway player's channel closed: they stop being a gateway player and, without an SDK socket, leave the
   * area now (saved), instead of after `remoteIdleMs`.
   */
  async gatewayRelease(userId: string): Promise<boolean> {
    const session = this.players.get(userId);
    if (!session?.remote) return false;
    session.remote = false;
    session.inbox = [];
    if (session.clients.size === 0) await this.players.dismiss(session);
    return true;
  }

  /** The platform changed a hosted player's items or coins (marketplace, economy): show it now. */
  async gatewayRefresh(userId: string): Promise<boolean> {
    const session = this.players.get(userId);
    if (session) await this.players.syncOutside(session);
    return session !== undefined;
  }

  /** Takes items out of a hosted player for the platform (marketplace escrow); `absent` when not hosted here. */
  async gatewayTakeItems(userId: string, claimId: string, item: string, qty: number): Promise<LiveTake> {
    const session = this.players.get(userId);
    return session ? this.players.takeForPlatform(session, claimId, item, qty) : 'absent';
  }

  /** Live and pending spawns of this area (`GET /mud/spawns/status`). */
  spawnStatus(): SpawnStatus {
    return this.spawns.status(this.sim);
  }

  private async onClientAction(client: Client, input: unknown, ctx: MessageContext): Promise<unknown> {
    const userId = (client.userData as { userId: string } | undefined)?.userId ?? '';
    const session = this.players.get(userId);
    try {
      if (!session || !session.clients.has(client)) throw new InvalidActionError('You are not in this area.');
      await this.perform(session, parseAction(input));
      return { ok: true };
    } catch (error) {
      const body = this.errorBody(error, userId, input);
      if (ctx.id !== undefined) return ctx.reject(body);
      if (session) this.delivery.flush(session);
      client.send(EVENTS_MESSAGE, [{ ...narrateError(body.code, body.message), data: { ...body } }]);
      return undefined;
    }
  }

  /** Runs one action for a hosted player, capturing their events; completes handoffs and durable saves. */
  private async perform(session: PlayerSession, action: MudAction): Promise<ActionOutcome> {
    const userId = session.identity.userId;
    this.consulted = [];
    const turn: ActionTurn = {};
    const run = this.delivery.captured(userId, () => runAction(this.sim, userId, action, turn));
    const consulted = this.consulted.splice(0);
    // Only an action that waits on the platform (`trade`) is awaited; its events are collected until it is done.
    const result = run.result instanceof Promise ? await run.result : run.result;
    const { events } = run;
    events.push(...(await this.answerConsulted(userId, consulted)));
    const handoff = result ?? undefined;
    if (handoff) await handOff(this.world, this.players, this.delivery, session, handoff);
    else {
      // Views are reconciled by the tick, which sends the patches. A room on a manual ticker (tests) also patches
      // on Colyseus's own interval: there the actor's view is reconciled now, so the test sees it at once.
      if (this.patchRate !== null) this.visibility.sync([session]);
      const ran = turn.ran ?? action;
      if (this.settings.durableActions && !isReadOnly(ran)) {
        const touched = ran.action === 'give' ? this.players.in(session.state.roomRef) : [session];
        await Promise.all(touched.map((s) => this.players.persist(s)));
      }
    }
    // The actor's own events go out before the reply (in the same socket write); everyone else's with the tick.
    holdWritesThisTurn(session.clients);
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

  /** `trade` at the broker desk (`SimContext.market`): the marketplace is awaited, then the player takes in its changes. */
  private async tradeAtDesk(desk: MarketDesk, userId: string, action: TradeAction): Promise<MarketEventBody> {
    const body = await desk.trade(this.sim, userId, action);
    const session = this.players.get(userId);
    if (session) await this.players.syncOutside(session);
    return body;
  }

  /** The minds' answers to what the action consulted them about, as the player's events (see askMinds). */
  private async answerConsulted(userId: string, requests: MindRequest[]): Promise<MudEvent[]> {
    if (!this.minds || requests.length === 0) return [];
    const deps = { world: this.world, log: this.log, userId, stillHere: () => !!this.players.get(userId) };
    const answers = await askMinds(this.minds, requests, deps);
    return this.delivery.captured(userId, () => answers.forEach((event) => this.sim.emit(event))).events;
  }

  /**
   * One simulation tick. The synchronised `state.tick` advances only on AI steps: a field changing every tick
   * would make every tick a patch to every client even in a quiet room. Each client then gets the events it
   * witnessed since the last send (one `events` message) and the state patch, in one socket write: at every tick,
   * or at every second tick in a crowded area (`sendsAt`, rooms/areaRoomOptions.ts).
   */
  private tick(): void {
    const tick = (this.ticks += 1);
    if (tick % this.settings.combatEvery === 0) combatRound(this.sim);
    if (tick % this.settings.aiEvery === 0) {
      this.state.tick = tick;
      runCreatureAi(this.sim);
      this.spawns.run(this.sim);
      this.resources.run(this.sim);
      restock(this.sim);
      this.players.dismissIdleRemotes(this.settings.remoteIdleMs);
    }
    if (tick % this.settings.regenEvery === 0) regenerate(this.sim);
    if (!sendsAt(tick, this.clients.length, this.settings.crowdedClients)) return;
    this.visibility.sync(this.players.all.values());
    const release = holdWrites(this.clients);
    try {
      this.delivery.flushAll();
      this.broadcastPatch();
    } finally {
      release();
    }
  }

  private errorBody(error: unknown, userId: string, input: unknown): ActionErrorBody {
    const body = toErrorBody(error);
    if (body.status >= 500) this.log.error({ err: error, userId, action: input }, 'action failed');
    return body;
  }

  private buildContext(options: AreaRoomOptions): SimContext {
    const journals = (userId: string) =>
      this.players.get(userId)?.journal ?? {
        quests: new Map(),
        relations: new Map(),
        visited: new Set(),
        asked: new Set(),
      };
    return {
      world: this.world,
      area: this.area,
      state: this.state,
      rng: createRng(`${options.seed ?? AREA_ROOM_DEFAULTS.seed}:${this.area.id}`),
      tuning: {
        combatEvery: this.settings.combatEvery,
        aiEvery: this.settings.aiEvery,
        regenEvery: this.settings.regenEvery,
      },
      minds: new Map(),
      stock: new Map(),
      journal: journals,
      playersIn: (roomRef) => this.delivery.playersIn(roomRef),
      emit: (event) => this.delivery.deliver(event),
      ruleEvents: ruleEventBus(),
      publish: (event) => (options.events ?? NO_WORLD_EVENTS).publish(event),
      consult: (request) => this.consulted.push(request),
      market: () => {
        const market = this.market();
        const desk = market && (this.desk ??= new MarketDesk(market));
        return desk && { trade: (userId, action) => this.tradeAtDesk(desk, userId, action) };
      },
      nextId: (prefix) => `${prefix}${++this.idCounter}`,
      now: () => this.clockSource.now(),
      onCreatureRemoved: (spawnPoint) => this.spawns.creatureRemoved(this.sim, spawnPoint),
    };
  }
}
