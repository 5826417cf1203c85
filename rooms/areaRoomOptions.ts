import type { Logger } from 'pino';
import type { Clock } from '../platform/clock';
import type { World } from './content/world';
import type { Authenticate, PlayerStore } from './persistence';
import type { Minds } from './minds';
import type { Ticker } from './ticker';
import type { WorldEventBus } from './worldEvents';
import type { PlayerStandings } from './standings';
import type { WorldMarket } from './rules/marketTrades';

/** Presence hash mapping userId → roomId of the area room currently hosting that player. */
export const PLAYER_ROOMS_KEY = 'mud:player-rooms';

/** Presence channel carrying one player's events (for the plain WebSocket channel and other listeners). */
export function playerEventsChannel(userId: string): string {
  return `mud:events:${userId}`;
}

/**
 * Each area is its own room type, named `area_<areaId>` (`client.joinOrCreate('area_village')`), and its one
 * room has that same fixed id, so there is exactly one room per area across processes.
 */
export function areaRoomName(areaId: string): string {
  return `area_${areaId}`;
}

/** The fixed room id of an area's room (equal to its room type name). */
export function areaRoomId(areaId: string): string {
  return areaRoomName(areaId);
}

/**
 * Options of an area room, given once per area as the room definition's default options (see
 * `areaRoomDefinitions`): the area, the injected dependencies (`world`, `store`, `authenticate`) and tunables.
 */
export interface AreaRoomOptions {
  /** Which area this room simulates; must be an area of `world`. */
  areaId: string;
  /** The validated world (`loadWorld()`). */
  world: World;
  /** Loads and saves characters. */
  store: PlayerStore;
  /** Verifies the session token a client joins with. */
  authenticate: Authenticate;
  /** RNG seed; each area mixes in its id. Default 1. */
  seed?: number | string;
  /** Time source for saves and idle timeouts. Default the system clock. */
  clock?: Clock;
  /** Simulation tick in ms. Default 100 (10 Hz). */
  tickMs?: number;
  /** Creature AI and spawns run every N ticks. Default 10. */
  aiEvery?: number;
  /** A combat round every N ticks. Default 10. */
  combatEvery?: number;
  /** Regeneration (and respawn of the dead) every N ticks. Default 50. */
  regenEvery?: number;
  /**
   * Clients at which an area counts as crowded: from then on the tick sends its events and patches every second tick
   * (5 Hz at the default tick) instead of every tick. The simulation keeps its rate, and an action's own events
   * and reply still leave at once. 0 never. Default 150.
   */
  crowdedClients?: number;
  /** Save every player this often, ms. Default 30000. */
  saveEveryMs?: number;
  /** Save a player before acknowledging each state-changing action. Default true. */
  durableActions?: boolean;
  /** A gateway-only player (no socket) is saved and removed after this long without actions, ms. Default 300000. */
  remoteIdleMs?: number;
  /** Messages per second a client may send before it is dropped. Default 30. */
  maxMessagesPerSecond?: number;
  logger?: Logger;
  /** Drives the simulation instead of the room's own interval (tests step it by hand). */
  ticker?: Ticker;
  /** Where world events (kills, quests, trades, conversations) are published. Default: nowhere. */
  events?: WorldEventBus;
  /** The platform's marketplace for `trade` through a broker NPC, once connected. Default: closed. */
  market?: () => WorldMarket | undefined;
  /** The NPC and companion brains `talk` and `ask <companion>` consult. Default: none (fixed lines only). */
  minds?: Minds;
  /** Players' social standing, once connected: NPCs' first impression of them. Default: none (strangers to all). */
  standings?: () => PlayerStandings | undefined;
}

/** The defaults of every optional tunable. */
export const AREA_ROOM_DEFAULTS = {
  seed: 1,
  tickMs: 100,
  aiEvery: 10,
  combatEvery: 10,
  regenEvery: 50,
  crowdedClients: 150,
  saveEveryMs: 30_000,
  durableActions: true,
  remoteIdleMs: 300_000,
  maxMessagesPerSecond: 30,
} as const;

/** The options that were given, without the undefined ones (so spreading them keeps the defaults). */
export function givenOptions<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Whether an area's tick sends what is pending (the views' reconciliation, the bystanders' events, the state
 * patches): at every tick, but at every second one once the area holds `crowdedClients` clients (0: never crowded).
 * Sending is most of a crowded tick's cost (the views, the patches, one socket write per client that has something),
 * and each patch is decoded by every client it reaches; a MUD's world at 5 Hz is still faster than the classic 4 Hz
 * pulse. Nothing is lost by waiting: events queue in the outboxes and changes in the schema encoder.
 */
export function sendsAt(tick: number, clients: number, crowdedClients: number): boolean {
  const crowded = crowdedClients > 0 && clients >= crowdedClients;
  return !crowded || tick % 2 === 0;
}
