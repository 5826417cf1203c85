import type { Disposition } from '../content/schemas';
import type { MapView } from '../rules/mapView';

/** Who receives an event: one player, everyone in a room (optionally except one player), or the whole area. */
export type Audience = { userId: string } | { roomRef: string; except?: string } | { areaId: string };

/** A name plus, for players, their userId (so narration can say "you" to the actor). */
export interface Actor {
  name: string;
  userId?: string;
  /** A creature's number among those of its name in its room, when there are several (`creatureNames.ts`). */
  nth?: number;
}

/** What a player sees on `look`. */
export interface RoomView {
  ref: string;
  name: string;
  description: string;
  exits: string[];
  players: string[];
  /** In the order they came into the room; `nth` numbers those that share a name. */
  creatures: Array<{
    id: string;
    name: string;
    nth?: number;
    emotion: string;
    health: number;
    maxHealth: number;
  }>;
  items: Array<{ id: string; name: string; qty: number }>;
  npcs: string[];
}

export interface ObjectiveView {
  text: string;
  have: number;
  need: number;
  done: boolean;
}

/**
 * Everything that happens in the world, as data. Rule modules emit these; `narration.ts` is the one place
 * that turns them into the text a player reads.
 */
export type GameEventBody =
  | InfoEventBody
  | MarketEventBody
  | { type: 'room.look'; room: RoomView; map?: MapView; hint?: string }
  | { type: 'player.left'; actor: Actor; direction: string }
  | { type: 'player.arrived'; actor: Actor }
  | { type: 'combat.started'; attacker: Actor; target: Actor }
  | { type: 'combat.hit'; attacker: Actor; target: Actor; damage: number; remaining: number }
  | { type: 'combat.missed'; attacker: Actor; target: Actor }
  | { type: 'creature.died'; creature: Actor; killer: Actor }
  | { type: 'player.died'; actor: Actor; killer: Actor; lost: number }
  | { type: 'player.respawned'; actor: Actor; roomRef: string }
  | { type: 'loot.dropped'; creature: Actor; items: Array<{ name: string; qty: number }> }
  | { type: 'xp.gained'; actor: Actor; amount: number; level: number; levelled: boolean }
  | { type: 'flee.succeeded'; actor: Actor; direction: string }
  | { type: 'flee.failed'; actor: Actor }
  | { type: 'rest.started'; actor: Actor }
  | { type: 'rest.stopped'; actor: Actor }
  | { type: 'npc.said'; npc: Actor; text: string; disposition: Disposition }
  | {
      type: 'npc.offers';
      npc: Actor;
      quests: Array<{ ref: string; name: string }>;
      wares: Array<{ ref: string; name: string; price: number }>;
      topics: Array<{ id: string; ask: string }>;
    }
  | { type: 'npc.answered'; npc: Actor; ask: string; text: string }
  | { type: 'npc.recalled'; npc: Actor; text: string; citations: string[] }
  | { type: 'disposition.changed'; npc: Actor; disposition: Disposition }
  | { type: 'item.taken'; actor: Actor; item: string; qty: number }
  | { type: 'item.dropped'; actor: Actor; item: string; qty: number }
  | { type: 'item.given'; actor: Actor; item: string; qty: number; recipient: Actor }
  | { type: 'item.equipped'; actor: Actor; item: string; slot: string }
  | { type: 'item.used'; actor: Actor; item: string; healed: number }
  | { type: 'item.bought'; actor: Actor; item: string; qty: number; price: number; npc: Actor }
  | { type: 'item.sold'; actor: Actor; item: string; qty: number; price: number; npc: Actor }
  | {
      type: 'inventory';
      items: Array<{ ref: string; name: string; qty: number }>;
      equipment: Record<string, string>;
      soft: number;
      hard: number;
      health: number;
      maxHealth: number;
    }
  | { type: 'craft.done'; actor: Actor; item: string; qty: number }
  | { type: 'chat.said'; actor: Actor; text: string }
  | { type: 'escort.started'; npc: Actor; destination: string }
  | { type: 'escort.followed'; npc: Actor }
  | { type: 'escort.arrived'; npc: Actor; destination: string }
  | { type: 'escort.hurt'; npc: Actor; creature: Actor; damage: number; remaining: number }
  | { type: 'escort.failed'; npc: Actor }
  | { type: 'escort.abandoned'; npc: Actor; reason: 'died' | 'left'; area: string }
  | { type: 'riddle.answered'; npc: Actor; correct: boolean }
  | { type: 'quest.accepted'; quest: string; objectives: ObjectiveView[] }
  | { type: 'quest.progress'; quest: string; objectives: ObjectiveView[] }
  | { type: 'quest.ready'; quest: string; giver: string; atGiver: boolean }
  | { type: 'quest.completed'; quest: string; xp: number; soft: number; items: string[]; companion?: string }
  | { type: 'companion.bonded'; companion: string; species: string }
  | { type: 'companion.spoke'; companion: string; text: string }
  | { type: 'companion.recalled'; companion: string; text: string; citations: string[] }
  | { type: 'companion.acted'; companion: string; target: string; damage: number }
  | { type: 'companion.bond'; companion: string; bond: number }
  | { type: 'companion.presence'; companion: string; presence: string }
  | { type: 'companion.offered'; companion: string; species: string; current: string }
  | { type: 'companion.parted'; companion: string }
  | { type: 'companion.declined'; companion: string }
  | { type: 'creature.emotion'; creature: Actor; emotion: string }
  | { type: 'creature.left'; creature: Actor; direction: string }
  | { type: 'creature.arrived'; creature: Actor; from: string }
  | { type: 'creature.warned'; creature: Actor; target: Actor }
  | { type: 'creature.ambushed'; creature: Actor; target: Actor }
  | { type: 'creature.phase'; creature: Actor; text: string }
  | { type: 'creature.approached'; creature: Actor; target: Actor; emotion: string }
  | { type: 'creature.spawned'; creature: Actor }
  | { type: 'area.handoff'; areaId: string; areaName: string; roomRef: string; reservation?: unknown };

/** A quest as the `quests` log shows it. */
export interface QuestLogEntry {
  name: string;
  description: string;
  status: 'active' | 'completed';
  giver: string;
  objectives: ObjectiveView[];
}

/** A recipe as the `recipes` command shows it. */
export interface RecipeView {
  name: string;
  produces: string;
  station: string;
  ingredients: Array<{ name: string; need: number; have: number }>;
  ready: boolean;
}

/** Events of the look-closer and character-sheet commands, and of talking between players. */
/** A marketplace listing as the world shows it: `n` is its number in the list the player last saw. */
export interface MarketListingLine {
  n: number;
  id: string;
  title: string;
  qty: number;
  price: number;
  currency: 'soft' | 'hard';
}

/** The marketplace reached through a broker NPC (`trade`; rooms/rules/marketTrades.ts). */
export type MarketEventBody =
  | { type: 'market.listed'; broker: Actor; listing: MarketListingLine }
  | { type: 'market.listings'; broker: Actor; heading: string; listings: MarketListingLine[] }
  | { type: 'market.bought'; broker: Actor; listing: MarketListingLine; fee: number }
  | { type: 'market.cancelled'; broker: Actor; listing: MarketListingLine };

export type InfoEventBody =
  | { type: 'help'; title: string; text: string }
  | { type: 'tutorial'; room: string; hint: string; next: string }
  | { type: 'examined'; kind: 'creature' | 'npc' | 'player' | 'item' | 'detail'; name: string; text: string }
  | {
      type: 'considered';
      creature: Actor;
      level: number;
      verdict: string;
      yourAttack: number;
      yourDefense: number;
    }
  | { type: 'quest.log'; quests: QuestLogEntry[] }
  | { type: 'recipes'; recipes: RecipeView[] }
  | {
      type: 'score';
      name: string;
      level: number;
      xp: number;
      nextLevelXp: number;
      health: number;
      maxHealth: number;
      soft: number;
      attack: number;
      defense: number;
      skills: Record<string, number>;
      paths: Record<string, number>;
      abilities: string[];
      companion: string;
    }
  | {
      type: 'map';
      area: string;
      here: string;
      grid: string;
      rooms: string[];
      vertical: string[];
      graph: MapView;
    }
  | { type: 'who'; area: string; players: Array<{ name: string; level: number; room: string }> }
  | { type: 'chat.emote'; actor: Actor; text: string }
  | { type: 'chat.whisper'; actor: Actor; target: Actor; text: string }
  | { type: 'chat.shout'; actor: Actor; text: string }
  | { type: 'path.advanced'; path: string; level: number; abilities: string[] }
  | { type: 'group.invited'; actor: Actor; target: Actor }
  | { type: 'group.joined'; actor: Actor }
  | { type: 'group.left'; actor: Actor }
  | { type: 'group.members'; members: string[] };

export type GameEventType = GameEventBody['type'];

/** An event with its audience. */
export type GameEvent = GameEventBody & { to: Audience };
