import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import { MongoServerError } from 'mongodb';
import { startMongoTarget, type MongoTarget } from './mongoTarget';

interface Player {
  handle: string;
  email: string;
  level: number;
  guild?: mongoose.Types.ObjectId;
  inventory: { item: string; qty: number }[];
  createdAt?: Date;
  updatedAt?: Date;
}

interface Guild {
  name: string;
}

function buildPlayer(overrides: Partial<Player> = {}): Partial<Player> {
  return { handle: 'ann', email: 'ann@example.com', level: 1, inventory: [], ...overrides };
}

let target: MongoTarget;
let connection: Connection;
let Players: Model<Player>;
let Guilds: Model<Guild>;

beforeAll(async () => {
  target = await startMongoTarget();
  connection = await mongoose.createConnection(target.uri).asPromise();
  const playerSchema = new Schema<Player>(
    {
      handle: { type: String, required: true, minlength: 3 },
      email: { type: String, required: true, unique: true },
      level: { type: Number, min: 1, max: 100, default: 1 },
      guild: { type: Schema.Types.ObjectId, ref: 'Guild' },
      inventory: [{ item: String, qty: Number }],
    },
    { timestamps: true },
  );
  Guilds = connection.model<Guild>('Guild', new Schema<Guild>({ name: { type: String, required: true } }));
  Players = connection.model<Player>('Player', playerSchema);
  await Players.init();
});
afterAll(async () => {
  await connection.close();
  await target.close();
});
beforeEach(async () => {
  await Players.deleteMany({});
});

it('creates the schema indexes on the server', async () => {
  const indexes = await Players.collection.listIndexes().toArray();
  expect(indexes.map((index) => [index.name, index.key, Boolean(index.unique)])).toEqual([
    ['_id_', { _id: 1 }, false],
    ['email_1', { email: 1 }, true],
  ]);
});

it('saves documents with defaults and timestamps and reads them back', async () => {
  const created = await Players.create(buildPlayer({ inventory: [{ item: 'sword', qty: 1 }] }));
  const found = await Players.findById(created._id).lean();
  expect(found).toMatchObject({
    handle: 'ann',
    email: 'ann@example.com',
    level: 1,
    inventory: [{ item: 'sword', qty: 1 }],
  });
  expect(found?.createdAt).toBeInstanceOf(Date);
  expect(found?.updatedAt?.getTime()).toBe(found?.createdAt?.getTime());
});

it('rejects invalid documents with a ValidationError before writing', async () => {
  const error = await Players.create(buildPlayer({ handle: 'x', level: 0 })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(mongoose.Error.ValidationError);
  const validation = error as mongoose.Error.ValidationError;
  expect(Object.keys(validation.errors).sort()).toEqual(['handle', 'level']);
  expect(validation.errors.level.message).toBe('Path `level` (0) is less than minimum allowed value (1).');
  expect(await Players.countDocuments()).toBe(0);
});

it('surfaces duplicate keys as MongoServerError 11000', async () => {
  await Players.create(buildPlayer());
  const error = await Players.create(buildPlayer({ handle: 'other' })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).code).toBe(11000);
  expect((error as MongoServerError).keyValue).toEqual({ email: 'ann@example.com' });
});

it('updates with findOneAndUpdate, upserts and populates references', async () => {
  const guild = await Guilds.create({ name: 'Smiths' });
  await Players.create(buildPlayer({ guild: guild._id }));
  const updated = await Players.findOneAndUpdate(
    { email: 'ann@example.com' },
    { $inc: { level: 4 }, $push: { inventory: { item: 'shield', qty: 2 } } },
    { new: true, runValidators: true },
  ).lean();
  expect(updated?.level).toBe(5);
  expect(updated?.inventory).toMatchObject([{ item: 'shield', qty: 2 }]);
  const upserted = await Players.findOneAndUpdate(
    { email: 'bob@example.com' },
    { $set: { handle: 'bobby' } },
    { upsert: true, new: true, setDefaultsOnInsert: true },
  ).lean();
  expect(upserted).toMatchObject({ email: 'bob@example.com', handle: 'bobby', level: 1 });
  const populated = await Players.findOne({ email: 'ann@example.com' })
    .populate<{ guild: Guild }>('guild')
    .lean();
  expect(populated?.guild.name).toBe('Smiths');
  const tooHigh = await Players.updateOne(
    { email: 'ann@example.com' },
    { $set: { level: 500 } },
    { runValidators: true },
  ).catch((e: unknown) => e);
  expect(tooHigh).toBeInstanceOf(mongoose.Error.ValidationError);
});

it('queries with sort, skip, limit and countDocuments', async () => {
  await Players.insertMany(
    Array.from({ length: 12 }, (_, i) =>
      buildPlayer({ handle: `p${String(i).padStart(2, '0')}`, email: `p${i}@x.io`, level: i + 1 }),
    ),
  );
  const page = await Players.find({ level: { $gte: 3 } })
    .sort({ level: -1 })
    .skip(2)
    .limit(3)
    .select('handle -_id')
    .lean();
  expect(page).toEqual([{ handle: 'p09' }, { handle: 'p08' }, { handle: 'p07' }]);
  expect(await Players.countDocuments({ level: { $lte: 5 } })).toBe(5);
});
