import type { QuestProgress } from '../../models/Character';
import type { AreaDef, World } from '../content/world';
import type { AreaState, CreatureState } from '../state/AreaState';
import type { PlayerState } from '../state/PlayerState';
import type { GameEvent } from '../text/events';
import type { MindRequest } from '../minds';
import type { WorldEvent } from '../worldEvents';
import type { Rng } from './random';
import { reject } from './errors';
import type { Escort } from './quests/escorts';
import type { RuleEventBus } from './ruleEvents';
import type { RoomMarket } from './marketTrades';

/** A character's progress on one quest: `counts[i]` is progress on objective i (the type lives with the model). */
export type { QuestProgress };

/**
 * The parts of a character that only its owner sees: quest journal, NPC relations (score per NPC) and the
 * rooms they have visited (the `map` command).
 */
export interface PlayerJournal {
  quests: Map<string, QuestProgress>;
  relations: Map<string, number>;
  visited: Set<string>;
  /** A companion a quest offered while another was bonded: `companion swap` takes it, `decline` refuses. */
  pendingCompanion?: string;
  /** The group the player travels with (its id), and a pending invitation to one. */
  group?: string;
  invite?: string;
  /** Dialogue topics already answered (`<npcRef>#<topic>`): each moves a disposition once. */
  asked: Set<string>;
  /** The quests an NPC offered last (`talk`), first first: what a bare `accept` takes (not saved). */
  offer?: { npc: string; quests: string[] };
  /** An NPC the player is escorting (not saved: it ends when they leave the area). */
  escort?: Escort;
  /**
   * The first impression the player's social standing makes on NPCs they have not dealt with (-3..3, read when they
   * join the area, not saved: `rooms/standings.ts`).
   */
  firstImpression?: number;
}

/** Server-only memory of a creature, beside its synchronised `CreatureState`. */
export interface CreatureMind {
  /** AI steps since anything happened to it; "time passes" fires at the template's `calmAfter`. */
  quietSteps: number;
  /** AI steps since it last wandered. */
  wanderSteps: number;
  /** Players who hurt it (they get xp and kill credit). */
  attackers: Set<string>;
  /** The player it last went up to (the `approach` behaviour greets each player once). */
  approached?: string;
  spawnPoint: string;
  /** Its spawn room: a creature with nothing to do walks back here. */
  home: string;
  /** AI steps a player has lingered in its room (the `territorial` behaviour). */
  lingered?: number;
  /** An ambusher lying in wait: not listed, not targetable, notices nothing until it strikes. */
  hidden?: boolean;
  /** It sprang an ambush: it strikes before anyone else in the next combat round. */
  firstStrike?: boolean;
  /** When it came into its current room (a process-wide sequence): creatures of one name are numbered by it. */
  arrived?: number;
  /** Boss phases entered so far, and the attack they add. */
  phase?: number;
  bonusAttack?: number;
}

/** Tunables of the simulation, in ticks (see AreaRoomOptions for defaults). */
export interface SimTuning {
  /** A combat round resolves every this many ticks. */
  combatEvery: number;
  /** Creature AI runs every this many ticks (one "AI step"). */
  aiEvery: number;
  /** Regeneration runs every this many ticks. */
  regenEvery: number;
}

/**
 * What a rule module may touch: the static world, this area's synchronised state, the seeded RNG, an event
 * sink and the server-only side tables. Rooms build one; unit tests build one with `buildSimContext`.
 */
export interface SimContext {
  world: World;
  area: AreaDef;
  state: AreaState;
  rng: Rng;
  tuning: SimTuning;
  minds: Map<string, CreatureMind>;
  /** Merchant wares below their stock (`npcRef>itemRef`), refilling one unit per `every` AI steps. */
  stock: Map<string, { left: number; max: number; every: number; waited: number }>;
  journal(userId: string): PlayerJournal;
  /**
   * The players in a room, as `playersIn` below finds them by scanning `state.players`, from an index the room keeps
   * by every move (rooms/eventDelivery.ts). Without it, `playersIn` scans the area's players.
   */
  playersIn?(roomRef: string): PlayerState[];
  emit(event: GameEvent): void;
  /** What rules tell each other (a kill, a visit, a talk...): quest objectives and escorts listen (`ruleEvents.ts`). */
  ruleEvents: RuleEventBus;
  /** Publishes a world event (kill, quest completed, trade, conversation) on the world event bus, once. */
  publish(event: WorldEvent): void;
  /** Asks the NPC / companion brains for a line; the room tells the answer after the action (rooms/minds.ts). */
  consult?(request: MindRequest): void;
  /** The marketplace through this room's broker desk (`trade`); undefined while the market is closed. */
  market?(): RoomMarket | undefined;
  nextId(prefix: string): string;
  /** The room's clock, ms since the epoch (daily quests). */
  now(): number;
  /** Records a creature's death at its spawn point so the spawn system refills it later. */
  onCreatureRemoved(spawnPoint: string): void;
}

/** The player or a 409 `NOT_IN_AREA` rejection. */
export function requirePlayer(ctx: SimContext, userId: string): PlayerState {
  const player = ctx.state.players.get(userId);
  if (!player) throw reject('NOT_IN_AREA', 'You are not in this area.');
  return player;
}

/** Rejects actions from a dead player until they respawn. */
export function requireAlive(player: PlayerState): void {
  if (player.status === 'dead') throw reject('DEAD', 'You are dead and cannot do that until you respawn.');
}

/** Players in a room, in `state.players`'s order (through the room's index when it has one). */
export function playersIn(ctx: SimContext, roomRef: string): PlayerState[] {
  if (ctx.playersIn) return ctx.playersIn(roomRef);
  const out: PlayerState[] = [];
  ctx.state.players.forEach((player) => {
    if (player.roomRef === roomRef) out.push(player);
  });
  return out;
}

/** Live creatures in a room that players can perceive (an ambusher lying in wait is not among them). */
export function creaturesIn(ctx: SimContext, roomRef: string): CreatureState[] {
  const out: CreatureState[] = [];
  ctx.state.creatures.forEach((creature) => {
    if (creature.roomRef === roomRef && creature.health > 0 && !ctx.minds.get(creature.id)?.hidden)
      out.push(creature);
  });
  return out;
}

/** Normalises a name for matching player input: lowercase, single spaces. */
export function normalise(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Finds the thing a player means by `query`: an exact ref or id, else a name that equals or contains the
 * query. Returns undefined when nothing matches.
 */
export function matchByName<T>(things: T[], query: string, keys: (thing: T) => string[]): T | undefined {
  const q = normalise(query);
  const exact = things.find((thing) => keys(thing).some((key) => normalise(key) === q));
  return exact ?? things.find((thing) => keys(thing).some((key) => normalise(key).includes(q)));
}
