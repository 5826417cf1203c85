import { type Presence, matchMaker } from '@colyseus/core';
import { AppError, UnavailableError } from '../platform/errors';
import type { ActionOutcome, GatewayReply } from './actionOutcome';
import type { LiveTake } from './outsideChanges';
import { PLAYER_ROOMS_KEY, areaRoomId, playerEventsChannel } from './areaRoomOptions';
import { ensureAreaRoom } from './areaRoomListing';
import { type World, areaOf } from './content/world';
import type { PlayerIdentity, PlayerStore } from './persistence';
import { type MudAction, parseAction } from './commands/actions';
import type { ActionErrorBody } from './rules/errors';
import type { MudEvent } from './text/narration';
import { type SpawnStatus, SpawnSystem } from './rules/creatures/spawns';

/** What the gateway needs: the same world and store the area rooms use. */
export interface ActionGatewayOptions {
  world: World;
  store: PlayerStore;
  /** Presence shared with the Colyseus server. Default `matchMaker.presence` (set once the server runs). */
  presence?: Presence;
  /** How long to wait for a room in another process, ms. Default 5000. */
  timeoutMs?: number;
}

/** Options of `perform`. */
export interface PerformOptions {
  /** Prepend events received since the player's last gateway call (REST polling). Default true. */
  backlog?: boolean;
}

/** Per-area spawn status; `running` is false for areas whose room is not up (its points show nothing live). */
export type AreaSpawnStatus = SpawnStatus & { running: boolean };

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  404: 'Not Found',
  409: 'Conflict',
  500: 'Internal Server Error',
};

/**
 * Lets code that is not a Colyseus client (the REST routes and the plain WebSocket channel) act in the
 * world. Every action runs on the authoritative area room actor hosting the player, found through the
 * presence hash `mud:player-rooms` (or the saved character's area), and reached with
 * `matchMaker.remoteRoomCall`, which goes through presence when the room lives in another process. So REST,
 * plain-WebSocket and SDK players share one world.
 */
export class ActionGateway {
  private readonly timeoutMs: number;

  constructor(private readonly options: ActionGatewayOptions) {
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  private get presence(): Presence {
    return this.options.presence ?? matchMaker.presence;
  }

  /**
   * Performs raw input (a plain-WebSocket frame): parses it into a `MudAction`, the one parse on that path (400
   * `INVALID_ACTION` when malformed, nothing changed), then acts as `act` does.
   */
  async perform(
    identity: PlayerIdentity,
    input: unknown,
    options: PerformOptions = {},
  ): Promise<ActionOutcome> {
    return this.act(identity, parseAction(input), options);
  }

  /**
   * Performs an action parsed where it entered (the REST body schema, an MCP tool, the telnet line) for `identity`
   * and returns what it produced. Throws an `AppError`: 409 with the world's reason (`NO_EXIT`, `IN_COMBAT`, ...)
   * when the world refuses it (nothing changed), 400 `INVALID_ACTION` for a typed `command` line it cannot read. A
   * move into another area follows the player there and appends that room's description (`outcome.handoff` says
   * where they went). A room that does not answer is a 503 `WORLD_UNAVAILABLE`.
   */
  async act(
    identity: PlayerIdentity,
    action: MudAction,
    options: PerformOptions = {},
  ): Promise<ActionOutcome> {
    const backlog = options.backlog ?? true;
    return unavailableOnFailure(async () => {
      const outcome = await this.callHost(identity, action, backlog);
      if (!outcome.handoff) return outcome;
      const arrived = await this.callRoom(
        await this.roomIdFor(outcome.handoff.areaId),
        identity,
        { action: 'look' },
        false,
      );
      return {
        ...outcome,
        events: [...outcome.events, ...arrived.events],
        roomRef: arrived.roomRef,
        player: arrived.player,
      };
    });
  }

  /** Restarts a gateway player's idle timeout (their plain-WebSocket channel is still open). */
  async touch(userId: string): Promise<void> {
    await this.callHosting(userId, 'gatewayTouch');
  }

  /** The player's plain-WebSocket channel closed: they leave the area unless an SDK socket keeps them there. */
  async release(userId: string): Promise<void> {
    await this.callHosting(userId, 'gatewayRelease');
  }

  /**
   * Shows a player the platform's changes to their items and coins when a room hosts them (nothing to do
   * otherwise: their next load reads them). A room that does not answer is a 503 `WORLD_UNAVAILABLE`.
   */
  async refresh(userId: string): Promise<void> {
    const hosted = await this.presence.hget(PLAYER_ROOMS_KEY, userId);
    if (!hosted) return;
    await unavailableOnFailure(() =>
      matchMaker.remoteRoomCall(hosted, 'gatewayRefresh', [userId], this.timeoutMs),
    );
  }

  /**
   * Takes items out of a player a room hosts, live (marketplace escrow). `absent` when no room hosts them: the
   * caller then changes the saved character, which is the truth while nobody plays it.
   */
  async takeItems(userId: string, claimId: string, item: string, qty: number): Promise<LiveTake> {
    const hosted = await this.presence.hget(PLAYER_ROOMS_KEY, userId);
    if (!hosted) return 'absent';
    return unavailableOnFailure(() =>
      matchMaker.remoteRoomCall(hosted, 'gatewayTakeItems', [userId, claimId, item, qty], this.timeoutMs),
    );
  }

  /** Subscribes to a player's events while they are attached through the gateway; returns the unsubscribe. */
  async subscribe(userId: string, listener: (event: MudEvent) => void): Promise<() => void> {
    const channel = playerEventsChannel(userId);
    await this.presence.subscribe(channel, listener);
    return () => this.presence.unsubscribe(channel, listener);
  }

  /** How many players are in the world now, in every area room of every process (MSSP's PLAYERS). Read-only. */
  playersOnline(): Promise<number> {
    return this.presence.hlen(PLAYER_ROOMS_KEY);
  }

  /** Spawn status of every area, in world order; areas whose room is not running report nothing live. */
  async spawnStatus(): Promise<AreaSpawnStatus[]> {
    return unavailableOnFailure(() =>
      Promise.all(
        [...this.options.world.areas.values()].map(async (area) => {
          const listing = await matchMaker.getRoomById(areaRoomId(area.id));
          if (!listing) {
            const points = new SpawnSystem(area, this.options.world).points;
            return {
              areaId: area.id,
              budget: area.spawnBudget,
              live: 0,
              pending: 0,
              points: points.map(({ id, roomRef, creature, max }) => ({
                id,
                roomRef,
                creature,
                max,
                live: 0,
                pending: 0,
              })),
              running: false,
            };
          }
          const status: SpawnStatus = await matchMaker.remoteRoomCall(
            listing.roomId,
            'spawnStatus',
            [],
            this.timeoutMs,
          );
          return { ...status, running: true };
        }),
      ),
    );
  }

  /** Calls `method(userId)` on the room hosting the player, if any room does. */
  private async callHosting(userId: string, method: 'gatewayTouch' | 'gatewayRelease'): Promise<void> {
    const hosted = await this.presence.hget(PLAYER_ROOMS_KEY, userId);
    if (hosted) await matchMaker.remoteRoomCall(hosted, method, [userId], this.timeoutMs);
  }

  /** Runs the action on the room hosting the player, re-routing once if the character turned out elsewhere. */
  private async callHost(
    identity: PlayerIdentity,
    action: MudAction,
    backlog: boolean,
  ): Promise<ActionOutcome> {
    const hosted = await this.presence.hget(PLAYER_ROOMS_KEY, identity.userId);
    if (hosted) {
      try {
        return await this.callRoom(hosted, identity, action, backlog);
      } catch (error) {
        if (error instanceof AppError) throw error;
        // The room is gone (its process died): forget the stale entry and route by the saved character.
        await this.presence.hdel(PLAYER_ROOMS_KEY, identity.userId);
      }
    }
    const record = await this.options.store.load(identity.userId);
    const areaId = areaOf(record?.roomRef ?? this.options.world.startRoom);
    try {
      return await this.callRoom(await this.roomIdFor(areaId), identity, action, backlog);
    } catch (error) {
      const moved =
        error instanceof AppError && error.code === 'WRONG_AREA'
          ? (error.extensions?.areaId as string)
          : undefined;
      if (!moved) throw error;
      return this.callRoom(await this.roomIdFor(moved), identity, action, backlog);
    }
  }

  private async callRoom(
    roomId: string,
    identity: PlayerIdentity,
    action: MudAction,
    backlog: boolean,
  ): Promise<ActionOutcome> {
    const reply: GatewayReply = await matchMaker.remoteRoomCall(
      roomId,
      'gatewayPerform',
      [identity, action, backlog],
      this.timeoutMs,
    );
    if (!reply.ok) throw errorFromActionBody(reply.error);
    return reply.outcome;
  }

  private async roomIdFor(areaId: string): Promise<string> {
    return (await ensureAreaRoom(areaId)).roomId;
  }
}

/** Runs `work`; anything but an `AppError` (a room or process that does not answer) becomes a 503. */
async function unavailableOnFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new WorldUnavailableError('The world did not answer; try again shortly.', error);
  }
}

/** 503 `WORLD_UNAVAILABLE`: no game process answers for the world (or this process cannot reach one). */
export class WorldUnavailableError extends UnavailableError {
  constructor(detail: string, cause?: unknown) {
    super(detail, 'WORLD_UNAVAILABLE', undefined, cause);
    this.name = 'WorldUnavailableError';
  }
}

/** Rebuilds, on the caller's side, the `AppError` a room reported as a plain body over presence. */
export function errorFromActionBody(body: ActionErrorBody): AppError {
  return new AppError(body.status, body.code, TITLES[body.status] ?? 'Error', {
    detail: body.message,
    errors: body.errors,
    extensions: body.areaId ? { areaId: body.areaId } : undefined,
  });
}
