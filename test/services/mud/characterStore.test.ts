import mongoose, { type Connection } from 'mongoose';
import { characterModel } from '../../../models/Character';
import type { CharacterRecord } from '../../../rooms/persistence';
import { MongoPlayerStore } from '../../../services/mud/characterStore';
import { startMongoTarget, type MongoTarget } from '../../embedded/mongo/mongoTarget';

/** A character with every kind of field filled in (quests with and without completedAt, a companion, maps). */
function buildCharacter(overrides: Partial<CharacterRecord> = {}): CharacterRecord {
  return {
    userId: 'ann',
    name: 'Ann',
    roomRef: 'village:market',
    health: 17,
    maxHealth: 25,
    level: 3,
    xp: 140,
    currencies: { soft: 12, hard: 1 },
    inventory: { 'village:stick': 2, 'village:herb': 1 },
    equipment: { weapon: 'village:wooden_sword' },
    skills: { combat: 4 },
    quests: {
      'village:first_steps': { status: 'completed', counts: [1, 1], completedAt: 1_700_000_000_000 },
      'village:rats': { status: 'active', counts: [2] },
    },
    relations: { 'village:elder': 3 },
    companion: { ref: 'village:pip', name: 'Pip', bond: 2, bondPoints: 6, presence: 'Subtle' },
    visited: ['village:square', 'village:market'],
    asked: ['village:elder:weather'],
    pendingCompanion: null,
    group: null,
    updatedAt: 1_700_000_000_500,
    ...overrides,
  };
}

describe('MongoPlayerStore writes', () => {
  let target: MongoTarget;
  let connection: Connection;

  beforeAll(async () => {
    target = await startMongoTarget();
    connection = await mongoose.createConnection(target.uri).asPromise();
  });

  afterAll(async () => {
    await connection.close();
    await target.close();
  });

  it('stores a character (written through the driver) that is exactly the record and valid for the model', async () => {
    const store = new MongoPlayerStore(connection);
    const record = buildCharacter();
    await store.save(record);
    await store.save({ ...record, roomRef: 'village:square', updatedAt: record.updatedAt + 1 });

    const characters = characterModel(connection);
    const { _id, ...stored } = (await characters.findOne({ userId: 'ann' }).lean())!;
    // Exactly the record (nothing cast away, nothing undefined written as null, one document per user).
    expect(stored).toEqual({ ...record, roomRef: 'village:square', updatedAt: record.updatedAt + 1 });
    expect(Object.keys(stored.quests['village:rats'])).toEqual(['status', 'counts']);
    expect(await characters.countDocuments({ userId: 'ann' })).toBe(1);
    expect((await store.load('ann'))?.roomRef).toBe('village:square');
    const hydrated = await characters.findOne({ userId: 'ann' });
    expect(hydrated!.validateSync()).toBeUndefined();
  });
});
