/**
 * The `findAndModify` command: picks the first match in `sort` order, then removes it or updates it (with
 * `upsert`), returning the document before or after (`new`) with `fields` projected, plus `lastErrorObject`.
 * Failures such as duplicate keys are command errors here, not write errors.
 */
import type { Document } from 'bson';
import { mongoError } from '../errors';
import { projectDocuments, selectDocuments } from '../query/documentQuery';
import { applyUpdate, upsertSeed } from '../query/updateDocument';
import type { CommandHandler } from './context';
import { targetCollection } from './context';

function projected(doc: Document | undefined, fields: Document | undefined): Document | null {
  if (!doc) return null;
  return projectDocuments([doc], fields, undefined)[0];
}

/** Handlers by command name. */
export const findAndModifyCommands: Record<string, CommandHandler> = {
  findAndModify: (context) => {
    const name = targetCollection(context);
    const { command, engine, db } = context;
    const filter = (command.query ?? {}) as Document;
    const fields = command.fields as Document | undefined;
    const update = command.update as Document | Document[] | undefined;
    if (command.remove && update !== undefined)
      throw mongoError('FailedToParse', 'Cannot specify both an update and remove=true');
    if (command.remove && command.upsert)
      throw mongoError('FailedToParse', 'Cannot specify both upsert=true and remove=true');
    if (!command.remove && update === undefined)
      throw mongoError('FailedToParse', 'Either an update or remove=true must be specified');

    const collection = engine.catalog.get(db, name);
    const [doc] = selectDocuments(collection, { filter, sort: command.sort as Document, limit: 1 });
    if (command.remove) {
      if (doc) collection?.delete(doc);
      return { lastErrorObject: { n: doc ? 1 : 0 }, value: projected(doc, fields) };
    }
    const arrayFilters = command.arrayFilters as Document[] | undefined;
    if (doc) {
      const next = applyUpdate(doc, update as Document, { filter, arrayFilters });
      if (next) collection?.replace(doc, next);
      return {
        lastErrorObject: { n: 1, updatedExisting: true },
        value: projected(command.new ? (next ?? doc) : doc, fields),
      };
    }
    if (!command.upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
    const seed = upsertSeed(filter, update as Document);
    const inserted = applyUpdate(seed, update as Document, { filter, arrayFilters, inserting: true }) ?? seed;
    engine.catalog.getOrCreate(db, name).collection.insert(inserted);
    return {
      lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id },
      value: command.new ? projected(inserted, fields) : null,
    };
  },
};
