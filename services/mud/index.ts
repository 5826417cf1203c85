import { matchMaker } from '@colyseus/core';
import { RedisDriver } from '@colyseus/redis-driver';
import { RedisPresence } from '@colyseus/redis-presence';
import { hasRole } from '../../platform/config';
import { placeRooms } from '../../platform/game/gameServer';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { Types } from 'mongoose';
import { ActionGateway } from '../../rooms/actionGateway';
import { areaRoomDefinitions } from '../../rooms/areaRooms';
import { loadWorld } from '../../rooms/content/loader';
import type { Minds } from '../../rooms/minds';
import { InProcessWorldEventBus, type WorldEventBus } from '../../rooms/worldEvents';
import type { AuthService } from '../auth';
import type { World } from '../../rooms/content/world';
import { characterModel, type CharacterRecord } from '../../models/Character';
import type { MudAction } from '../../rooms/commands/actions';
import type { WorldMarket } from '../../rooms/rules/marketTrades';
import type { PlayerStandings } from '../../rooms/standings';
import type { EconomyService } from '../economy';
import { economyWorldPurse } from '../economy';
import { CharacterItems } from './characterItems';
import { MongoPlayerStore } from './characterStore';
import { PlayerIdentities } from './playerIdentities';
import { presentOutcome } from './presenters';
import type { ActionResult, SpawnStatusBody } from './schemas';
import { registerMudRoutes } from './router';
import { ChannelHolds } from './channelHolds';
import { SocketChannel } from './socketChannel';
import { LinkCodes, createTelnetPort } from './telnet';
import { MemoryEphemeralStore, RedisEphemeralStore } from '../../platform/stores/ephemeralStore';
import { WorldAccess } from './worldAccess';
import { worldItems, type WorldItems } from './worldItems';

export { ActionResultSchema, SpawnStatusSchema, type ActionResult } from './schemas';
export { ItemNotInInventoryError } from './characterItems';
export type { WorldItems } from './worldItems';

/**
 * The world's operations as other areas (the MCP gateway) call them: the same action gateway and presenters as
 * the /mud routes. Every call throws the world's refusals (409), 400 for a bad action, 503 when unreachable.
 */
export interface WorldService {
  /** The loaded world data (areas, rooms, creatures, items). */
  readonly world: World;
  /** Whether this process reaches the area rooms (game role, or presence shared through Redis). */
  readonly reachable: boolean;
  /** Performs `action` as the character of the signed-in user `userId`. */
  act(userId: Types.ObjectId, action: MudAction): Promise<ActionResult>;
  spawnStatus(): Promise<SpawnStatusBody>;
  /** Items moved in and out of characters by other areas (the marketplace), live for players in rooms. */
  readonly items: WorldItems;
  /**
   * Saved characters, read-only (no room session is touched): one user's with `userId`, else up to `limit` in
   * `userId` order after `after` (paging). For the quests brain and the admin's user activity.
   */
  readCharacters(query: { userId?: string; after?: string; limit: number }): Promise<CharacterRecord[]>;
}

/** The world's parts plus its service interface. */
export interface WorldArea extends ProductParts {
  service: WorldService;
  /** Opens the marketplace to the world's broker NPCs (`trade`); until then `trade` answers MARKET_UNAVAILABLE. */
  connectMarket(market: WorldMarket): void;
  /**
   * Lets NPCs read players' social standing (the social graph, built after the world): players who join an area
   * from then on make a first impression on the NPCs they have not dealt with (rooms/standings.ts).
   */
  connectStandings(standings: PlayerStandings): void;
}

/** What the composition hands the world besides the platform: the event bus it publishes on and the economy. */
export interface WorldAreaOptions {
  /** The bus memory, social and economy services subscribe to; an in-process one when absent. */
  events?: WorldEventBus;
  /** With it, characters' coins are the soft currency of their owners' economy accounts. */
  economy?: EconomyService;
  /** The NPC and companion brains `talk` and `ask <companion>` consult (rooms/minds.ts); none by default. */
  minds?: Minds;
}

/**
 * The MUD world as a product area: one Colyseus room type per area (game role), characters in MongoDB,
 * players authenticated by the identity service's sessions, and the REST routes plus the plain WebSocket
 * channel (api role) acting on the same room actors through the action gateway.
 *
 * An api-only process reaches the rooms of game processes through Redis (`REDIS_URL`); without Redis and
 * without the game role, the world's routes answer 503 `WORLD_UNAVAILABLE`. World events are published on
 * `events` (the composition's bus, which memory, social and economy services subscribe to). With the `economy`, characters'
 * coins are the soft currency of their owners' economy accounts (see services/mud/coinSync.ts).
 */
export async function createWorldArea(
  context: PlatformContext,
  auth: AuthService,
  options: WorldAreaOptions = {},
): Promise<WorldArea> {
  const { events, economy, minds } = options;
  let market: WorldMarket | undefined;
  let standings: PlayerStandings | undefined;
  const { config, stores, clock, logger } = context;
  if (!stores.mongo) throw new Error('The world needs MongoDB for its characters');
  const log = logger.child({ component: 'mud' });
  // World events (kills, quests, trades, conversations): the composition passes the bus its services
  // subscribe to; the world only publishes.
  const bus =
    events ??
    new InProcessWorldEventBus((err, event) =>
      log.error({ err, eventType: event.type }, 'world event subscriber failed'),
    );
  const world = await loadWorld();
  const store = new MongoPlayerStore(stores.mongo, economy && economyWorldPurse(economy));
  // Characters saved before the economy existed get their coins into their accounts once (idempotent).
  const migrated = (await store.coins?.migrateAll()) ?? 0;
  if (migrated > 0) log.info({ migrated }, 'character coins migrated to economy accounts');
  const identities = new PlayerIdentities(stores.mongo, auth.sessions);
  const sharesRemoteRooms = !hasRole(config, 'game') && hasRole(config, 'api') && !!config.REDIS_URL;
  const presence = sharesRemoteRooms ? new RedisPresence(config.REDIS_URL) : undefined;
  const driver = sharesRemoteRooms ? new RedisDriver(config.REDIS_URL) : undefined;
  if (presence && driver) {
    // A standalone matchmaker: it reaches rooms (and asks game processes to create them) without hosting any, placing
    // them as the game processes do (their GAME_HOSTS_ROOMS pins, else the process with the fewest rooms).
    await matchMaker.setup(presence, driver, undefined, placeRooms(presence));
    await matchMaker.accept(true);
  }
  const reachable = hasRole(config, 'game') || sharesRemoteRooms;
  const gateway = new ActionGateway({ world, store, presence });
  const access = new WorldAccess({ world, gateway, identities, reachable });
  const items = worldItems(new CharacterItems(stores.mongo), reachable ? gateway : undefined, log);
  // Coins moved by transfers, grants, sales and holds show at once to players who are in the world.
  const unsubscribe = economy?.onUserBalancesChanged((userIds) => {
    for (const userId of userIds) void items.refresh(userId);
  });
  // One-time codes that sign a terminal into a web user's character; shared through Redis when processes are split.
  const linkCodes = new LinkCodes(
    stores.redis
      ? new RedisEphemeralStore<{ userId: string }>(stores.redis, 'mud:telnet-code:')
      : new MemoryEphemeralStore<{ userId: string }>(clock),
    clock,
  );
  // Channels of every kind share who holds a player, so the last one closing lets the character leave.
  const holds = new ChannelHolds();
  const channels = hasRole(config, 'api') ? [new SocketChannel({ access, logger: log, clock, holds })] : [];
  // The telnet port runs where the rooms do (game role); TELNET_PORT=0 turns it off.
  const telnet =
    hasRole(config, 'game') && config.TELNET_PORT > 0
      ? [createTelnetPort(context, { access, signIn: auth.prompt, holds, codes: linkCodes })]
      : [];
  return {
    service: {
      world,
      reachable,
      act: async (userId, action) => presentOutcome(await access.act(await access.player(userId), action)),
      spawnStatus: () => access.spawnStatus(),
      items,
      readCharacters: async ({ userId, after, limit }) => {
        const filter = userId ? { userId } : after ? { userId: { $gt: after } } : {};
        const docs = await characterModel(stores.mongo)
          .find({ ...filter, name: { $exists: true } }, { _id: 0, coinSync: 0, itemClaims: 0, claimSeq: 0 })
          .sort({ userId: 1 })
          .limit(limit)
          .lean<CharacterRecord[]>();
        return docs;
      },
    },
    services: [(routes) => registerMudRoutes(routes, access, auth.guard, linkCodes)],
    rooms: areaRoomDefinitions({
      world,
      store,
      authenticate: identities.authenticate,
      clock,
      logger: log,
      seed: config.MUD_SEED,
      tickMs: config.MUD_TICK_MS,
      crowdedClients: config.MUD_CROWDED_CLIENTS,
      saveEveryMs: config.MUD_SAVE_INTERVAL_MS,
      remoteIdleMs: config.MUD_IDLE_TIMEOUT_MS,
      events: bus,
      market: () => market,
      minds,
      standings: () => standings,
    }),
    connectMarket: (connected) => {
      market = connected;
    },
    connectStandings: (connected) => {
      standings = connected;
    },
    upgrades: channels,
    listeners: telnet,
    close: async () => {
      unsubscribe?.();
      presence?.shutdown();
      await driver?.shutdown();
    },
  };
}
