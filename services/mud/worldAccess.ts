import type { Types } from 'mongoose';
import type { ActionGateway, PerformOptions } from '../../rooms/actionGateway';
import type { ActionOutcome } from '../../rooms/actionOutcome';
import type { MudAction } from '../../rooms/commands/actions';
import type { World } from '../../rooms/content/world';
import type { PlayerIdentity } from '../../rooms/persistence';
import type { MudEvent } from '../../rooms/text/narration';
import { WorldUnavailableError } from './errors';
import type { PlayerIdentities } from './playerIdentities';
import { presentSpawnStatus } from './presenters';
import type { SpawnStatusBody } from './schemas';

/** What the HTTP routes and the plain WebSocket channel use to act in the world. */
export interface WorldAccessOptions {
  world: World;
  gateway: ActionGateway;
  identities: PlayerIdentities;
  /**
   * Whether this process can reach the area rooms: it runs the game role, or shares presence with game
   * processes through Redis. When false every call is a 503 `WORLD_UNAVAILABLE`.
   */
  reachable: boolean;
}

/**
 * The world as the non-Colyseus interfaces see it: signed-in users act through the action gateway on the one
 * authoritative room actor hosting their character, exactly as SDK clients do.
 */
export class WorldAccess {
  constructor(private readonly options: WorldAccessOptions) {}

  get world(): World {
    return this.options.world;
  }

  /** A session token → player, or null (the plain WebSocket handshake). */
  authenticate(token: string): Promise<PlayerIdentity | null> {
    return this.options.identities.authenticate(token);
  }

  /** The player of a signed-in user. */
  player(userId: Types.ObjectId): Promise<PlayerIdentity> {
    return this.options.identities.of(userId);
  }

  /** Performs an action parsed where it entered; 400/409 when it is refused (nothing changed), 503 when no room answers. */
  act(identity: PlayerIdentity, action: MudAction, options?: PerformOptions): Promise<ActionOutcome> {
    this.requireReachable();
    return this.options.gateway.act(identity, action, options);
  }

  /** Parses raw input (a plain-WebSocket frame) into an action, the one parse on that path, and performs it. */
  perform(identity: PlayerIdentity, input: unknown, options?: PerformOptions): Promise<ActionOutcome> {
    this.requireReachable();
    return this.options.gateway.perform(identity, input, options);
  }

  /** Every area's live and pending spawns. */
  async spawnStatus(): Promise<SpawnStatusBody> {
    this.requireReachable();
    return presentSpawnStatus(this.options.world, await this.options.gateway.spawnStatus());
  }

  /** Streams the events a gateway player witnesses between their actions; returns the unsubscribe. */
  subscribe(userId: string, listener: (event: MudEvent) => void): Promise<() => void> {
    this.requireReachable();
    return this.options.gateway.subscribe(userId, listener);
  }

  /** Players in the world now (every area, every process); 0 when the rooms are out of reach. */
  async playersOnline(): Promise<number> {
    return this.options.reachable ? this.options.gateway.playersOnline() : 0;
  }

  /** Keeps a gateway player in the world while their channel is open. */
  touch(userId: string): Promise<void> {
    return this.options.gateway.touch(userId);
  }

  /** Lets a gateway player leave the world (saved) when their last channel closes. */
  release(userId: string): Promise<void> {
    return this.options.gateway.release(userId);
  }

  /** Throws 503 `WORLD_UNAVAILABLE` when this process cannot reach the area rooms. */
  requireReachable(): void {
    if (this.options.reachable) return;
    throw new WorldUnavailableError(
      'This process cannot reach the world: run the game role here, or set REDIS_URL so it shares presence with game processes.',
    );
  }
}
