import mongoose, { type Connection } from 'mongoose';
import { type CharacterRecord, InMemoryPlayerStore, type PlayerStore } from '../../../rooms/persistence';
import { playerFromRecord, recordFromPlayer } from '../../../rooms/playerRecords';
import { MongoPlayerStore } from '../../../services/mud/characterStore';
import { startMongoTarget, type MongoTarget } from '../../embedded/mongo/mongoTarget';
import { buildFullCharacter } from './characterFixture';

/** A character from before `visited`, `asked`, `pendingCompanion`, `group` and `completedAt` were saved. */
function buildOlderCharacter(): CharacterRecord {
  const older: CharacterRecord = buildFullCharacter({
    quests: { 'village:first_steps': { status: 'completed', counts: [1, 1] } },
  });
  for (const field of ['visited', 'asked', 'pendingCompanion', 'group'] as const) delete older[field];
  return older;
}

describe.each([
  ['MongoPlayerStore', 'mongo'],
  ['InMemoryPlayerStore', 'memory'],
] as const)('%s load', (_name, backend) => {
  let target: MongoTarget | undefined;
  let connection: Connection | undefined;
  let memory: InMemoryPlayerStore;

  beforeAll(async () => {
    if (backend !== 'mongo') return;
    target = await startMongoTarget();
    connection = await mongoose.createConnection(target.uri).asPromise();
  });
  beforeEach(async () => {
    memory = new InMemoryPlayerStore();
    await connection?.collection('characters').deleteMany({});
  });
  afterAll(async () => {
    await connection?.close();
    await target?.close();
  });

  /** A store instance over the shared data: a fresh one per call on MongoDB (what a new process would load). */
  const freshStore = (): PlayerStore => (connection ? new MongoPlayerStore(connection) : memory);

  it('reads back every field save wrote, deep-equal', async () => {
    const ann = buildFullCharacter();
    await freshStore().save(buildFullCharacter({ userId: 'bob', name: 'Bob', group: 'bob' }));
    await freshStore().save(ann);

    expect(await freshStore().load('ann')).toStrictEqual(ann);
  });

  it('reads back what the room saves, which the room turns back into the same live player', async () => {
    const ann = buildFullCharacter({ group: 'ann' });
    const live = playerFromRecord(ann);
    await freshStore().save(recordFromPlayer(live.state, live.journal, ann.updatedAt));

    const loaded = (await freshStore().load('ann'))!;
    const again = playerFromRecord(loaded);
    expect(recordFromPlayer(again.state, again.journal, ann.updatedAt)).toStrictEqual(ann);
    expect(again.journal).toStrictEqual(live.journal);
  });

  it('loads a character saved before the optional fields existed with their defaults', async () => {
    await freshStore().save(buildOlderCharacter());

    expect(await freshStore().load('ann')).toStrictEqual({
      ...buildOlderCharacter(),
      visited: [],
      asked: [],
      pendingCompanion: null,
      group: null,
    });
  });

  it('keeps a group its founder or another character holds, and drops one nobody else holds', async () => {
    await freshStore().save(buildFullCharacter({ userId: 'cid', group: 'bob' }));
    await freshStore().save(buildFullCharacter({ userId: 'ann', group: 'bob' }));
    await freshStore().save(buildFullCharacter({ userId: 'dee', group: 'dee' }));
    await freshStore().save(buildFullCharacter({ userId: 'eve', group: 'fay' }));

    const groups = async (...ids: string[]) =>
      Promise.all(ids.map(async (id) => (await freshStore().load(id))?.group));
    expect(await groups('ann', 'cid', 'dee', 'eve')).toEqual(['bob', 'bob', 'dee', null]);
    // Cid leaves the group: Ann, its last member apart from its absent founder, is no longer in one.
    await freshStore().save(buildFullCharacter({ userId: 'cid', group: null }));
    expect(await groups('ann')).toEqual([null]);
  });
});
