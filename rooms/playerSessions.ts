import type { Client, Presence } from '@colyseus/core';
import type { Logger } from 'pino';
import type { Clock } from '../platform/clock';
import { PLAYER_ROOMS_KEY } from './areaRoomOptions';
import { type AreaDef, type World, areaOf } from './content/world';
import type { EventDelivery, PlayerSession } from './eventDelivery';
import { type LiveTake, afterSaves, applyOutsideChanges, takeFromLivePlayer } from './outsideChanges';
import { type Authenticate, type PlayerIdentity, type PlayerStore, newCharacter } from './persistence';
import { playerFromRecord, recordFromPlayer } from './playerRecords';
import { type SavedFields, recordChanges } from './savedFields';
import { SaveBatch } from './saveBatch';
import { firstImpression, type PlayerStandings } from './standings';
import { disengage } from './rules/combat';
import type { SimContext } from './rules/context';
import { WrongAreaError } from './rules/errors';
import { enterRoom, leaveRoom, viewRoom } from './rules/movement';
import { mapAround } from './rules/mapView';
import type { RoomVisibility } from './visibility';

/** What the session lifecycle needs from the room hosting it. */
export interface SessionHost {
  world: World;
  area: AreaDef;
  store: PlayerStore;
  authenticate: Authenticate;
  clock: Clock;
  sim: SimContext;
  delivery: EventDelivery;
  visibility: RoomVisibility;
  presence: () => Presence;
  roomId: () => string;
  log: Logger;
  /** Players' social standing, once the composition connects it (NPCs' first impression). */
  standings?: () => PlayerStandings | undefined;
}

/**
 * The players an area room hosts and their lifecycle: attach (load or create the character, enter the room),
 * dismiss (leave, save, let go), detach (out of the state without a save: handoff), persist (queued saves),
 * autosave and the dismissal of idle gateway players. The room actor calls these from its hooks.
 */
export class PlayerSessions {
  /** Hosted players by userId (also read by `EventDelivery`). */
  readonly all = new Map<string, PlayerSession>();
  /** Bumped whenever a session joins or leaves `all` (what indexes of the sessions rebuild on). */
  changes = 0;
  /** Saves of players who just left, so a quick rejoin loads what they left with. */
  private readonly leaving = new Map<string, Promise<void>>();
  /** Character saves, written in batches (rooms/saveBatch.ts). */
  private readonly saves: SaveBatch;

  constructor(private readonly host: SessionHost) {
    this.saves = new SaveBatch(host.store, () => host.clock.now());
  }

  get(userId: string): PlayerSession | undefined {
    return this.all.get(userId);
  }

  /** Hosted players standing in `roomRef`. */
  in(roomRef: string): PlayerSession[] {
    return [...this.all.values()].filter((s) => s.state.roomRef === roomRef);
  }

  /**
   * Hosts a player here: loads their character (new ones start at the world's start room) and puts them in
   * their room. A second socket of a hosted player is added to their session and shown the room again.
   * Throws `WrongAreaError` when the character is in another area.
   */
  async attach(identity: PlayerIdentity, client?: Client): Promise<PlayerSession> {
    const { sim, delivery, visibility } = this.host;
    const existing = this.all.get(identity.userId);
    if (existing) {
      if (client) {
        existing.clients.add(client);
        visibility.watch(existing, client);
        delivery.deliver({
          type: 'room.look',
          room: viewRoom(sim, existing.state.roomRef),
          map: mapAround(sim, identity.userId),
          to: { userId: identity.userId },
        });
        delivery.flush(existing);
      }
      return existing;
    }
    await this.leaving.get(identity.userId);
    const { world, area, store, clock } = this.host;
    const [saved, impression] = await Promise.all([
      store.load(identity.userId),
      this.firstImpressionOf(identity.userId),
    ]);
    const record = saved ?? newCharacter(world, identity, clock.now());
    const asSaved = saved && world.rooms.has(record.roomRef);
    if (!world.rooms.has(record.roomRef)) record.roomRef = area.respawnRoom;
    if (areaOf(record.roomRef) !== area.id) throw new WrongAreaError(areaOf(record.roomRef));
    if (this.all.has(identity.userId)) return this.attach(identity, client);
    const { state, journal } = playerFromRecord(record);
    journal.firstImpression = impression;
    const session: PlayerSession = {
      identity,
      state,
      journal,
      clients: new Set(client ? [client] : []),
      remote: false,
      outbox: [],
      lastRemoteAt: clock.now(),
      inbox: [],
      saving: Promise.resolve(),
      // What was loaded is what is saved (until the player or the platform changes it), but for what a load may
      // answer differently from what the store holds.
      saved: asSaved ? loadedAsSaved(recordFromPlayer(state, journal, 0)) : undefined,
    };
    this.all.set(identity.userId, session);
    this.changes += 1;
    delivery.changed(session, true);
    sim.state.players.set(identity.userId, state);
    if (client) visibility.watch(session, client);
    await this.host.presence().hset(PLAYER_ROOMS_KEY, identity.userId, this.host.roomId());
    // A new character is saved at once, so what the platform changes from now on has a saved character to meet.
    if (!saved && store.sync) await this.persist(session);
    // Registered first, then read: a platform change made before the registration was visible is seen here, and
    // one made after finds the player registered and is sent to this room (gatewayRefresh).
    await this.syncOutside(session).catch((err: unknown) =>
      this.host.log.error({ err, userId: identity.userId }, 'applying outside changes on join failed'),
    );
    enterRoom(sim, state, state.roomRef);
    // Only the newcomer's view is reconciled now; the views of those in the room follow with the tick.
    visibility.sync([session]);
    delivery.flush(session);
    return session;
  }

  /**
   * The first impression the player's social standing makes on NPCs (rooms/standings.ts), or none when the social
   * graph is not connected or cannot be read (logged: the player is then a stranger to everyone, and still plays).
   */
  private async firstImpressionOf(userId: string): Promise<number | undefined> {
    const standings = this.host.standings?.();
    if (!standings) return undefined;
    try {
      return firstImpression(await standings(userId));
    } catch (err) {
      this.host.log.warn({ err, userId }, 'social standing not read: NPCs meet the player as a stranger');
      return undefined;
    }
  }

  /** One of a player's sockets closed; without other sockets or a gateway hold they leave the area. */
  async clientLeft(client: Client): Promise<void> {
    const session = this.all.get((client.userData as { userId: string }).userId);
    if (!session || !session.clients.delete(client)) return;
    if (session.clients.size === 0 && !session.remote) await this.dismiss(session);
  }

  /** Saves a player and removes them from the area (last socket gone, idle gateway player, dispose). */
  async dismiss(session: PlayerSession): Promise<void> {
    const userId = session.identity.userId;
    if (this.all.get(userId) !== session) return;
    disengage(this.host.sim, session.state);
    leaveRoom(this.host.sim, session.state, '');
    this.detach(session);
    const saved = this.persist(session);
    this.leaving.set(userId, saved);
    try {
      await saved;
    } finally {
      if (this.leaving.get(userId) === saved) this.leaving.delete(userId);
    }
  }

  /** Takes a player out of this room's state and presence without saving (a handoff saves on its own). */
  detach(session: PlayerSession): void {
    const userId = session.identity.userId;
    this.all.delete(userId);
    this.changes += 1;
    this.host.delivery.changed(session, false);
    this.host.sim.state.players.delete(userId);
    this.host.visibility.forget(session);
    void this.host
      .presence()
      .hdel(PLAYER_ROOMS_KEY, userId)
      .catch((err: unknown) => this.host.log.error({ err, userId }, 'presence cleanup failed'));
  }

  /** Shows the platform's changes to a hosted player's items and coins (see applyOutsideChanges). */
  syncOutside(session: PlayerSession): Promise<void> {
    const { sync } = this.host.store;
    return sync ? afterSaves(session, () => applyOutsideChanges(session, sync)) : Promise.resolve();
  }

  /** Takes items out of a hosted player for the platform (marketplace escrow; see takeFromLivePlayer). */
  takeForPlatform(session: PlayerSession, claimId: string, item: string, qty: number): Promise<LiveTake> {
    const { sync } = this.host.store;
    return sync ? takeFromLivePlayer(session, sync, claimId, item, qty) : Promise.resolve('absent');
  }

  /**
   * Saves the player's state behind any save or outside change already queued for them (SaveBatch: written with
   * other players' saves, and joined by later saves until it is written); resolves once it is durable.
   */
  persist(session: PlayerSession): Promise<void> {
    return this.saves.persist(session);
  }

  /**
   * Autosave: queues a save of every hosted player whose record changed since its last save, logging failures.
   * Saving all of a crowded area's players at once queued every move's durable save behind hundreds of unchanged
   * ones (500 players: move p95 5 s); a player who only looked and talked, or was just saved by a move, is skipped.
   */
  saveEveryone(): void {
    for (const session of this.all.values()) {
      const record = recordFromPlayer(session.state, session.journal, 0);
      if (recordChanges(record, session.saved).changed?.length === 0) continue;
      this.persist(session).catch((err) =>
        this.host.log.error({ err, userId: session.identity.userId }, 'autosave failed'),
      );
    }
  }

  /** Dismisses gateway-only players (no socket) whose last action is older than `idleMs`. */
  dismissIdleRemotes(idleMs: number): void {
    const cutoff = this.host.clock.now() - idleMs;
    for (const session of [...this.all.values()]) {
      if (session.remote && session.clients.size === 0 && session.lastRemoteAt < cutoff) {
        this.dismiss(session).catch((err) =>
          this.host.log.error({ err, userId: session.identity.userId }, 'saving an idle player failed'),
        );
      }
    }
  }

  /** Saves and dismisses everyone (the room is being disposed), and waits for every save asked for before. */
  async dismissAll(): Promise<void> {
    await Promise.all([...this.all.values()].map((session) => this.dismiss(session)));
    await this.saves.drain();
  }
}

/**
 * The saved fields a loaded character is known to have in the store: all of them but the two a load may answer
 * differently from the stored document (rooms/persistence.ts `load`): the `group` (null when no longer one, while
 * the document still names it) and the `name` (the platform's store answers the account's display name). The first
 * save writes those two, so the document then holds what the room shows.
 */
function loadedAsSaved(record: ReturnType<typeof recordFromPlayer>): SavedFields {
  const { fields } = recordChanges(record, undefined);
  fields.delete('group');
  fields.delete('name');
  return fields;
}
