/** The `insert` command: `_id` generated (and placed first) when missing, per-document write errors. */
import { ObjectId, type Document } from 'bson';
import { mongoError } from '../errors';
import { withIdFirst } from '../query/updateDocument';
import type { CommandHandler } from './context';
import { targetCollection } from './context';
import { runWriteBatch, withWriteErrors } from './writeBatch';

function prepare(doc: Document): Document {
  if (doc._id === undefined) return { _id: new ObjectId(), ...doc };
  if (Array.isArray(doc._id)) throw mongoError('BadValue', "can't use an array for _id");
  if (doc._id instanceof RegExp) throw mongoError('BadValue', "can't use a regex for _id");
  return withIdFirst(doc);
}

/** Handlers by command name. */
export const insertCommands: Record<string, CommandHandler> = {
  insert: (context) => {
    const name = targetCollection(context);
    const { collection } = context.engine.catalog.getOrCreate(context.db, name);
    let n = 0;
    const writeErrors = runWriteBatch<Document>(
      context.command.documents,
      context.command.ordered !== false,
      (doc) => {
        collection.insert(prepare(doc));
        n += 1;
      },
    );
    return withWriteErrors({ n }, writeErrors);
  },
};
