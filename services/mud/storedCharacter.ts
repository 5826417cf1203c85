import type { CharacterDocument, CharacterPlatformFields, QuestProgress } from '../../models/Character';
import type { CharacterRecord } from '../../rooms/persistence';

/** A `characters` document as read back (lean), platform fields included; older ones lack the optional fields. */
export type StoredCharacter = CharacterDocument & CharacterPlatformFields;

/**
 * The `CharacterRecord` a saved document holds: every field `MongoPlayerStore.save` writes, copied (never shared
 * with the document), with the defaults of `newCharacter` for fields older documents lack (`visited`, `asked`,
 * `pendingCompanion`, `group`, a quest's `completedAt`). The platform fields (`coinSync`, `claimSeq`, `itemClaims`)
 * stay behind. `name` and `currencies` are the caller's (display name, economy balances); `group` is as stored,
 * validated by the caller (see `MongoPlayerStore.load`).
 *
 * Typed `Required<CharacterRecord>` so that a field added to the record later fails to compile here until it is
 * read back (the optional fields were once left out, and every reload lost them).
 */
export function recordFromStored(
  doc: StoredCharacter,
  name: string,
  currencies: CharacterRecord['currencies'],
): Required<CharacterRecord> {
  return {
    userId: doc.userId,
    name,
    roomRef: doc.roomRef,
    health: doc.health,
    maxHealth: doc.maxHealth,
    level: doc.level,
    xp: doc.xp,
    currencies,
    inventory: { ...doc.inventory },
    equipment: { ...doc.equipment },
    skills: { ...doc.skills },
    quests: Object.fromEntries(
      Object.entries(doc.quests ?? {}).map(([ref, progress]) => [ref, questFromStored(progress)]),
    ),
    relations: { ...doc.relations },
    companion: doc.companion
      ? {
          ref: doc.companion.ref,
          name: doc.companion.name,
          bond: doc.companion.bond,
          bondPoints: doc.companion.bondPoints,
          presence: doc.companion.presence,
        }
      : null,
    visited: [...(doc.visited ?? [])],
    asked: [...(doc.asked ?? [])],
    pendingCompanion: doc.pendingCompanion ?? null,
    group: doc.group ?? null,
    updatedAt: doc.updatedAt,
  };
}

/** One quest's progress; `completedAt` only where it was saved (the room writes it only once set). */
function questFromStored(progress: QuestProgress): QuestProgress {
  return {
    status: progress.status,
    counts: [...(progress.counts ?? [])],
    ...(progress.completedAt !== undefined && progress.completedAt !== null
      ? { completedAt: progress.completedAt }
      : {}),
  };
}
