import { Types, type Connection } from 'mongoose';
import { characterModel } from '../../models/Character';
import { userModel } from '../../models/User';
import type { CharacterRecord, PlayerStore } from '../../rooms/persistence';

/**
 * The world's `PlayerStore` on MongoDB: one `characters` document per user, replaced whole on each save (one
 * single-document write, so a save is atomic). Area rooms await `save` before acknowledging a state-changing
 * action, and MongoDB acknowledges only written data, so a restart loses no acknowledged progress. A loaded
 * character carries its user's current display name, so a name chosen with `PUT /auth/me` shows on its next entry.
 */
export class MongoPlayerStore implements PlayerStore {
  private readonly characters;
  private readonly users;

  constructor(connection: Connection) {
    this.characters = characterModel(connection);
    this.users = userModel(connection);
  }

  /** The user's display name, when they chose one. */
  private async displayName(userId: string): Promise<string | undefined> {
    if (!Types.ObjectId.isValid(userId)) return undefined;
    const user = await this.users.findById(userId, { displayName: 1 }).lean();
    return user?.displayName || undefined;
  }

  async load(userId: string): Promise<CharacterRecord | null> {
    const doc = await this.characters.findOne({ userId }, { _id: 0 }).lean();
    if (!doc) return null;
    return {
      userId: doc.userId,
      name: (await this.displayName(userId)) ?? doc.name,
      roomRef: doc.roomRef,
      health: doc.health,
      maxHealth: doc.maxHealth,
      level: doc.level,
      xp: doc.xp,
      currencies: { soft: doc.currencies.soft, hard: doc.currencies.hard },
      inventory: { ...doc.inventory },
      equipment: { ...doc.equipment },
      skills: { ...doc.skills },
      quests: Object.fromEntries(
        Object.entries(doc.quests ?? {}).map(([ref, p]) => [
          ref,
          { status: p.status, counts: [...p.counts] },
        ]),
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
      updatedAt: doc.updatedAt,
    };
  }

  async save(record: CharacterRecord): Promise<void> {
    await this.characters.replaceOne({ userId: record.userId }, record, { upsert: true });
  }
}
