/**
 * Cursor commands: `find` (filter, sort, projection, skip, limit, batchSize, singleBatch), `getMore` and
 * `killCursors`.
 */
import type { Document } from 'bson';
import { mongoError } from '../errors';
import { projectDocuments, selectDocuments } from '../query/documentQuery';
import type { CommandHandler } from './context';
import { optionalCount, targetCollection } from './context';

function cursorIds(value: unknown): number[] {
  if (!Array.isArray(value)) throw mongoError('FailedToParse', "killCursors requires a 'cursors' array");
  return value.map((id) => Number(id));
}

/** Handlers by command name. */
export const findCommands: Record<string, CommandHandler> = {
  find: (context) => {
    const name = targetCollection(context);
    const { command, engine, db } = context;
    if (command.tailable || command.awaitData) {
      throw mongoError(
        'CommandNotSupported',
        'tailable cursors are not supported by the embedded MongoDB engine',
      );
    }
    const filter = command.filter as Document | undefined;
    const docs = selectDocuments(engine.catalog.get(db, name), {
      filter,
      sort: command.sort as Document | undefined,
      skip: optionalCount(command.skip, 'skip'),
      limit: optionalCount(command.limit, 'limit'),
    });
    const results = projectDocuments(docs, command.projection as Document | undefined, filter);
    const batchSize = optionalCount(command.batchSize, 'batchSize');
    return { cursor: engine.cursors.open(`${db}.${name}`, results, batchSize, Boolean(command.singleBatch)) };
  },
  getMore: ({ command, engine, db }) => {
    const collection = command.collection;
    if (typeof collection !== 'string')
      throw mongoError('FailedToParse', "getMore requires a 'collection' string");
    const batchSize = optionalCount(command.batchSize, 'batchSize');
    return { cursor: engine.cursors.getMore(Number(command.getMore), `${db}.${collection}`, batchSize) };
  },
  killCursors: (context) => {
    targetCollection(context);
    const { killed, notFound } = context.engine.cursors.kill(cursorIds(context.command.cursors));
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  },
};
