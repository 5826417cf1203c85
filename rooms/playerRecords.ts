import type { CompanionPresence, EquipSlot } from './content/schemas';
import type { CharacterRecord } from './persistence';
import { PlayerState } from './state/PlayerState';
import type { PlayerJournal } from './rules/context';

/** Conversions between a saved `CharacterRecord` and a room's live player (schema state + private journal). */

/** Builds the live player from a record. A dead character comes back at idle with 1 health. */
export function playerFromRecord(record: CharacterRecord): { state: PlayerState; journal: PlayerJournal } {
  const state = new PlayerState({
    userId: record.userId,
    name: record.name,
    roomRef: record.roomRef,
    health: Math.max(1, record.health),
    maxHealth: record.maxHealth,
    level: record.level,
    xp: record.xp,
    soft: record.currencies.soft,
    hard: record.currencies.hard,
    status: 'idle',
    target: '',
  });
  for (const [ref, qty] of Object.entries(record.inventory)) state.inventory.set(ref, qty);
  for (const [slot, ref] of Object.entries(record.equipment)) if (ref) state.equipment.set(slot, ref);
  for (const [skill, level] of Object.entries(record.skills)) state.skills.set(skill, level);
  if (record.companion) {
    Object.assign(state.companion, record.companion);
  }
  const journal: PlayerJournal = {
    quests: new Map(
      Object.entries(record.quests).map(([ref, p]) => [
        ref,
        { status: p.status, counts: [...p.counts], ...(p.completedAt ? { completedAt: p.completedAt } : {}) },
      ]),
    ),
    relations: new Map(Object.entries(record.relations)),
    visited: new Set(record.visited ?? []),
    asked: new Set(record.asked ?? []),
    ...(record.pendingCompanion ? { pendingCompanion: record.pendingCompanion } : {}),
    ...(record.group ? { group: record.group } : {}),
  };
  return { state, journal };
}

/** Snapshots the live player into a record. */
export function recordFromPlayer(
  state: PlayerState,
  journal: PlayerJournal,
  updatedAt: number,
): CharacterRecord {
  const inventory: Record<string, number> = {};
  state.inventory.forEach((qty, ref) => (inventory[ref] = qty));
  const equipment: Partial<Record<EquipSlot, string>> = {};
  state.equipment.forEach((ref, slot) => (equipment[slot as EquipSlot] = ref));
  const skills: Record<string, number> = {};
  state.skills.forEach((level, skill) => (skills[skill] = level));
  const c = state.companion;
  return {
    userId: state.userId,
    name: state.name,
    roomRef: state.roomRef,
    health: state.health,
    maxHealth: state.maxHealth,
    level: state.level,
    xp: state.xp,
    currencies: { soft: state.soft, hard: state.hard },
    inventory,
    equipment,
    skills,
    quests: Object.fromEntries(
      [...journal.quests].map(([ref, p]) => [
        ref,
        { status: p.status, counts: [...p.counts], ...(p.completedAt ? { completedAt: p.completedAt } : {}) },
      ]),
    ),
    relations: Object.fromEntries(journal.relations),
    companion: c.ref
      ? {
          ref: c.ref,
          name: c.name,
          bond: c.bond,
          bondPoints: c.bondPoints,
          presence: c.presence as CompanionPresence,
        }
      : null,
    visited: [...journal.visited],
    asked: [...journal.asked],
    pendingCompanion: journal.pendingCompanion ?? null,
    group: journal.group ?? null,
    updatedAt,
  };
}
