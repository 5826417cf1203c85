import { characterModel } from '../../../models/Character';
import type { CharacterRecord } from '../../../rooms/persistence';
import { CharacterItems } from '../../../services/mud/characterItems';
import { MongoPlayerStore } from '../../../services/mud/characterStore';
import { useMongooseTarget } from '../../embedded/mongo/mongoTarget';
import { buildFullCharacter } from './characterFixture';

/** The full character, with a quest saved without `completedAt` beside one saved with it. */
function buildCharacter(): CharacterRecord {
  return buildFullCharacter({
    quests: {
      'village:first_steps': { status: 'completed', counts: [1, 1], completedAt: 1_700_000_000_000 },
      'village:rats': { status: 'active', counts: [2] },
    },
  });
}

describe('MongoPlayerStore writes', () => {
  const connection = useMongooseTarget();

  it('stores a character (written through the driver) that is exactly the record and valid for the model', async () => {
    const store = new MongoPlayerStore(connection());
    const record = buildCharacter();
    await store.save(record);
    await store.save({ ...record, roomRef: 'village:square', updatedAt: record.updatedAt + 1 });

    const characters = characterModel(connection());
    const { _id, ...stored } = (await characters.findOne({ userId: 'ann' }).lean())!;
    // Exactly the record (nothing cast away, nothing undefined written as null, one document per user).
    expect(stored).toEqual({ ...record, roomRef: 'village:square', updatedAt: record.updatedAt + 1 });
    expect(Object.keys(stored.quests['village:rats'])).toEqual(['status', 'counts']);
    expect(await characters.countDocuments({ userId: 'ann' })).toBe(1);
    expect((await store.load('ann'))?.roomRef).toBe('village:square');
    const hydrated = await characters.findOne({ userId: 'ann' });
    expect(hydrated!.validateSync()).toBeUndefined();
  });

  it('saves a batch in one bulk write, applying outside item claims, and a new character on its own', async () => {
    const store = new MongoPlayerStore(connection());
    const ann = buildCharacter();
    const bob = buildFullCharacter({ userId: 'bob', name: 'Bob', inventory: { 'village:stick': 1 } });
    await store.save(ann);
    await store.save(bob);
    await store.load('ann');
    await store.load('bob');
    // Delivered to Bob from outside after his session loaded him: his next save must keep it.
    expect(await new CharacterItems(connection()).give('bob', 'delivery-1', 'village:stick', 2)).toBe(true);
    const characters = characterModel(connection());
    const bulk = jest.spyOn(characters.collection, 'bulkWrite');
    const cid = buildFullCharacter({ userId: 'cid', name: 'Cid' });

    const results = await store.saveMany([{ ...ann, roomRef: 'village:square' }, { ...bob, health: 3 }, cid]);

    expect(results).toEqual([undefined, undefined, undefined]);
    expect(bulk).toHaveBeenCalledTimes(1);
    expect(bulk.mock.calls[0][0]).toHaveLength(2);
    bulk.mockRestore();
    expect((await store.load('ann'))?.roomRef).toBe('village:square');
    const bobNow = await store.load('bob');
    expect([bobNow?.health, bobNow?.inventory['village:stick']]).toEqual([3, 3]);
    expect((await store.load('cid'))?.name).toBe('Cid');
  });

  it('writes only the fields a batch names as changed, without a read unless items or coins changed', async () => {
    const store = new MongoPlayerStore(connection());
    const ann = buildFullCharacter({ group: 'ann' });
    const bob = buildFullCharacter({
      userId: 'bob',
      name: 'Bob',
      group: null,
      inventory: { 'village:stick': 1 },
    });
    await store.save(ann);
    await store.save(bob);
    await store.load('ann');
    await store.load('bob');
    // Delivered to Bob from outside after his session loaded him: a save of his inventory must keep it.
    expect(await new CharacterItems(connection()).give('bob', 'delivery-2', 'village:stick', 2)).toBe(true);
    const characters = characterModel(connection());
    const bulk = jest.spyOn(characters.collection, 'bulkWrite');
    const find = jest.spyOn(characters, 'find');
    const annMoved = { ...ann, roomRef: 'village:square', updatedAt: ann.updatedAt + 1 };

    expect(await store.saveMany([annMoved], [['roomRef']])).toEqual([undefined]);
    expect(find).not.toHaveBeenCalled();
    expect(bulk.mock.calls[0][0]).toEqual([
      {
        updateOne: {
          filter: { userId: 'ann' },
          update: { $set: { roomRef: 'village:square', updatedAt: annMoved.updatedAt } },
        },
      },
    ]);

    const bobHurt = { ...bob, health: 3, inventory: { 'village:stick': 1, 'village:herb': 1 } };
    expect(await store.saveMany([bobHurt], [['health', 'inventory']])).toEqual([undefined]);
    expect(find).toHaveBeenCalledTimes(1);
    const [write] = bulk.mock.calls[1][0] as unknown as Array<{
      updateOne: { filter: object; update: { $set: Record<string, unknown> } };
    }>;
    // Guarded by the claims sequence, with the delivery the session has not shown applied to the inventory written.
    expect(write.updateOne.filter).toEqual({ claimSeq: expect.any(Number), userId: 'bob' });
    expect(write.updateOne.update.$set.inventory).toEqual({ 'village:stick': 3, 'village:herb': 1 });
    expect(Object.keys(write.updateOne.update.$set)).toEqual(['health', 'inventory', 'updatedAt']);
    bulk.mockRestore();
    find.mockRestore();

    // A restart (a new store reading the documents) restores everything: the fields written and the ones kept.
    const restarted = new MongoPlayerStore(connection());
    expect(await restarted.load('ann')).toEqual(annMoved);
    expect(await restarted.load('bob')).toEqual({
      ...bob,
      health: 3,
      inventory: { 'village:stick': 3, 'village:herb': 1 },
    });
  });
});
