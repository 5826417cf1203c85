/**
 * The world event bus: things that happened in the world that other parts of the platform may care about
 * (the brain's memory, the social graph, the economy), published once each by the area room where they
 * happened. The world does not know its subscribers: the composition (services/mud) creates one bus, hands
 * it to the area rooms (`AreaRoomOptions.events`) and lets services subscribe.
 */
export type WorldEvent =
  | { type: 'creature.killed'; areaId: string; roomRef: string; creature: string; userIds: string[] }
  | { type: 'player.died'; areaId: string; roomRef: string; userId: string; killer: string }
  | { type: 'quest.completed'; areaId: string; userId: string; quest: string; xp: number; soft: number }
  | {
      type: 'trade.completed';
      areaId: string;
      userId: string;
      npc: string;
      item: string;
      qty: number;
      soft: number;
      side: 'buy' | 'sell';
    }
  | { type: 'item.given'; areaId: string; userId: string; to: string; item: string; qty: number }
  | { type: 'npc.conversation'; areaId: string; userId: string; npc: string; disposition: string }
  | { type: 'quest.accepted'; areaId: string; userId: string; quest: string; giver: string }
  | {
      /** An NPC's regard for a player moved (`cause`: gift, likedGift, questCompleted, attackedProtected, dialogue). */
      type: 'npc.disposition';
      areaId: string;
      userId: string;
      npc: string;
      cause: string;
      delta: number;
      score: number;
      disposition: string;
      /** What it was about: the item given, the quest, the creature attacked, the topic. */
      about?: string;
    }
  | {
      /** Something a player shared with their companion (`moment`: bonded, fight, rest, quest, found). */
      type: 'companion.moment';
      areaId: string;
      userId: string;
      companion: string;
      moment: 'bonded' | 'fight' | 'rest' | 'quest' | 'found';
      /** What happened, from the companion's side: "defeated the cave rat", "found a glowing crystal". */
      text: string;
      roomRef: string;
      bondBefore: number;
      bond: number;
    }
  | { type: 'coins.changed'; areaId: string; userId: string; delta: number; reason: string };

export type WorldEventType = WorldEvent['type'];

/** A subscriber; it runs synchronously after the world changed and must not throw (errors are caught). */
export type WorldEventListener<E extends WorldEvent = WorldEvent> = (event: E) => void;

/** What a bus carries: events told apart by `type`. */
export interface TypedEvent {
  type: string;
}

/** The events of `E` a subscription to `T` receives (`'*'`: all of them). */
export type EventsOf<E extends TypedEvent, T extends E['type'] | '*'> = T extends E['type']
  ? Extract<E, { type: T }>
  : E;

/** Publishes events to subscribers, by type or to all. */
export interface EventBus<E extends TypedEvent> {
  publish(event: E): void;
  /** Subscribes to one type (or every event with `'*'`); returns the unsubscribe. */
  subscribe<T extends E['type'] | '*'>(type: T, listener: (event: EventsOf<E, T>) => void): () => void;
}

/** The bus of world events the platform's services subscribe to. */
export type WorldEventBus = EventBus<WorldEvent>;

/**
 * An in-process bus: listeners run synchronously, in the order they subscribed. A subscriber that throws is
 * reported to `onError` and does not stop the others (an `onError` that rethrows makes the error the publisher's).
 */
export class InProcessEventBus<E extends TypedEvent> implements EventBus<E> {
  private readonly listeners = new Map<string, Set<(event: E) => void>>();

  constructor(private readonly onError: (error: unknown, event: E) => void = () => undefined) {}

  publish(event: E): void {
    for (const key of [event.type, '*']) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(event);
        } catch (error) {
          this.onError(error, event);
        }
      }
    }
  }

  subscribe<T extends E['type'] | '*'>(type: T, listener: (event: EventsOf<E, T>) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const entry = listener as (event: E) => void;
    set.add(entry);
    return () => set.delete(entry);
  }
}

/** The in-process bus of world events (the composition's default). */
export class InProcessWorldEventBus extends InProcessEventBus<WorldEvent> {}

/** The bus of a world nobody listens to (rooms built without `events`). */
export const NO_WORLD_EVENTS: WorldEventBus = {
  publish: () => undefined,
  subscribe: () => () => undefined,
};
