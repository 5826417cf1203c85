import type { Document, Filter } from 'mongodb';
import type { Connection } from 'mongoose';

/**
 * The first document of `model`'s collection matching `filter` (meant for an equality on an indexed field), read
 * with one `find` command asking for a single batch of one, which is what the driver's `findOne` sends. `findOne`
 * also builds, drives and closes a cursor object around that command, which costs about 30 µs and 10 KB of garbage
 * per call; sign-in and every authenticated request read this way (bench/authVerify.ts). Returns the raw document
 * (no mongoose casting), or null.
 */
export async function findOneDocument<T>(
  model: { db: Connection; collection: { collectionName: string } },
  filter: Filter<Document>,
): Promise<T | null> {
  const database = model.db.db;
  if (!database) throw new Error('MongoDB is not connected');
  const reply = await database.command({
    find: model.collection.collectionName,
    filter,
    limit: 1,
    singleBatch: true,
  });
  return ((reply.cursor as { firstBatch: T[] }).firstBatch[0] as T | undefined) ?? null;
}
