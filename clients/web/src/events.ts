/** One event the world sends a player (`events` message): see rooms/systems/narration.ts. */
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
}

/** A quest as the log shows it. */
export interface QuestEntry {
  name: string;
  status: 'active' | 'completed';
  objectives: Array<{ text: string; have: number; need: number; done: boolean }>;
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
    quests.set(name, {
      name,
      status: 'active',
      objectives: (event.data.objectives as QuestEntry['objectives']) ?? [],
    });
    return true;
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
