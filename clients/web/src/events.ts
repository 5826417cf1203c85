import type { MapView } from './mapWords';

/** One event the world sends a player (`events` message): see rooms/text/narration.ts. */
export interface MudEvent {
  type: string;
  channel: string;
  text: string;
  data: Record<string, unknown>;
}

/** What a `room.look` event says about the room. */
export interface RoomView {
  ref: string;
  name: string;
  description: string;
  exits: string[];
  npcs: string[];
  /** In the order they came into the room. */
  creatures?: Array<{ id: string; name: string }>;
}

/** A quest as the log shows it; `readyAt` names the giver to hand a finished one in to. */
export interface QuestEntry {
  name: string;
  status: 'active' | 'completed';
  objectives: Array<{ text: string; have: number; need: number; done: boolean }>;
  readyAt?: string;
}

/** The quests an `npc.offers` event offers (empty for other events). */
export function offersOf(event: MudEvent): Array<{ ref: string; name: string }> {
  if (event.type !== 'npc.offers') return [];
  return (event.data.quests as Array<{ ref: string; name: string }> | undefined) ?? [];
}

/** The player's map a `room.look` (its `map`) or `map` event (its `graph`) carries, if any. */
export function mapOf(event: MudEvent): MapView | undefined {
  if (event.type === 'room.look') return event.data.map as MapView | undefined;
  if (event.type === 'map') return event.data.graph as MapView | undefined;
  return undefined;
}

/** The room a `room.look` event describes, if it is one. */
export function roomOf(event: MudEvent): RoomView | undefined {
  if (event.type !== 'room.look') return undefined;
  return event.data.room as RoomView;
}

/** Folds quest events into the quest log (keyed by quest name). */
export function updateQuests(quests: Map<string, QuestEntry>, event: MudEvent): boolean {
  const name = event.data.quest as string | undefined;
  if (!name) return false;
  if (event.type === 'quest.accepted' || event.type === 'quest.progress') {
    const objectives = (event.data.objectives as QuestEntry['objectives']) ?? [];
    // A progress report of a finished quest keeps where to hand it in.
    const readyAt = objectives.every((o) => o.done) ? quests.get(name)?.readyAt : undefined;
    quests.set(name, { name, status: 'active', objectives, ...(readyAt ? { readyAt } : {}) });
    return true;
  }
  if (event.type === 'quest.ready') {
    const entry = quests.get(name);
    if (entry) quests.set(name, { ...entry, readyAt: event.data.giver as string });
    return Boolean(entry);
  }
  if (event.type === 'quest.completed') {
    const entry = quests.get(name);
    quests.set(name, { name, status: 'completed', objectives: entry?.objectives ?? [] });
    return true;
  }
  return false;
}

/** A readable name for an `area:id` reference ("village:bread_loaf" → "bread loaf"). */
export function refName(ref: string): string {
  return (ref.split(':').pop() ?? ref).replace(/[_-]/g, ' ');
}
