/** `count` (with query, skip, limit) and `distinct` (array values flattened, missing fields skipped). */
import type { Document } from 'bson';
import { resolve } from 'mingo/util';
import { compareBson } from '../bsonValues';
import { mongoError } from '../errors';
import { selectDocuments } from '../query/documentQuery';
import type { CommandHandler } from './context';
import { optionalCount, targetCollection } from './context';

function distinctValues(docs: Document[], key: string): unknown[] {
  const values: unknown[] = [];
  for (const doc of docs) {
    const value = resolve(doc, key);
    if (value === undefined) continue;
    if (Array.isArray(value)) values.push(...value.flat());
    else values.push(value);
  }
  values.sort(compareBson);
  return values.filter((value, i) => i === 0 || compareBson(value, values[i - 1]) !== 0);
}

/** Handlers by command name. */
export const countCommands: Record<string, CommandHandler> = {
  count: (context) => {
    const name = targetCollection(context);
    const { command, engine, db } = context;
    const collection = engine.catalog.get(db, name);
    const query = command.query as Document | undefined;
    const skip = optionalCount(command.skip, 'skip') ?? 0;
    const limit = optionalCount(
      command.limit !== undefined ? Math.abs(Number(command.limit)) : undefined,
      'limit',
    );
    if (!collection) return { n: 0 };
    if ((!query || Object.keys(query).length === 0) && !limit)
      return { n: Math.max(0, collection.count - skip) };
    return { n: selectDocuments(collection, { filter: query, skip, limit }).length };
  },
  distinct: (context) => {
    const name = targetCollection(context);
    const { command, engine, db } = context;
    if (typeof command.key !== 'string' || !command.key)
      throw mongoError('FailedToParse', "distinct requires a 'key' string");
    const docs = selectDocuments(engine.catalog.get(db, name), {
      filter: command.query as Document | undefined,
    });
    return { values: distinctValues(docs, command.key) };
  },
};
