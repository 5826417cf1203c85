/** The character record the MUD's persistence tests save and load, with every field set. */
import type { QuestProgress } from '../../../models/Character';
import type { CharacterRecord } from '../../../rooms/persistence';

/** A completed quest with every `QuestProgress` field set (Required: a new field must be filled in here). */
const COMPLETED: Required<QuestProgress> = {
  status: 'completed',
  counts: [1, 1],
  completedAt: 1_700_000_000_000,
};

/**
 * A character with every `CharacterRecord` field set to something other than its default. `Required` makes a field
 * added to the record later fail to compile here, and then the round trip below fails until `load` reads it back.
 */
export function buildFullCharacter(overrides: Partial<CharacterRecord> = {}): Required<CharacterRecord> {
  const full: Required<CharacterRecord> = {
    userId: 'ann',
    name: 'Ann',
    roomRef: 'village:market',
    health: 17,
    maxHealth: 25,
    level: 3,
    xp: 140,
    currencies: { soft: 12, hard: 1 },
    inventory: { 'village:stick': 2, 'village:herb': 1 },
    equipment: { weapon: 'village:wooden_sword', head: 'village:leather_cap' },
    skills: { crafting: 4 },
    quests: { 'village:first_steps': COMPLETED, 'village:rat_problem': { status: 'active', counts: [2] } },
    relations: { 'village:elder': 3, 'village:smith': -2 },
    companion: { ref: 'village:pip', name: 'Pip', bond: 2, bondPoints: 6, presence: 'Subtle' },
    visited: ['village:square', 'village:market', 'village:gate'],
    asked: ['village:elder#weather', 'village:smith#ore'],
    pendingCompanion: 'forest:wren',
    group: 'bob',
    updatedAt: 1_700_000_000_500,
  };
  // Overrides only replace fields with values of their own type (tests never pass undefined).
  return { ...full, ...overrides } as Required<CharacterRecord>;
}
