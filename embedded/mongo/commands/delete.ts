/** The `delete` command: each statement removes the first match (`limit: 1`) or every match (`limit: 0`). */
import type { Document } from 'bson';
import { mongoError } from '../errors';
import { selectDocuments } from '../query/documentQuery';
import type { CommandHandler } from './context';
import { targetCollection } from './context';
import { runWriteBatch, withWriteErrors } from './writeBatch';

/** Handlers by command name. */
export const deleteCommands: Record<string, CommandHandler> = {
  delete: (context) => {
    const name = targetCollection(context);
    const collection = context.engine.catalog.get(context.db, name);
    let n = 0;
    const writeErrors = runWriteBatch<Document>(
      context.command.deletes,
      context.command.ordered !== false,
      (statement) => {
        if (statement.limit !== 0 && statement.limit !== 1) {
          throw mongoError('FailedToParse', 'The limit field in delete objects must be 0 or 1');
        }
        const victims = selectDocuments(collection, {
          filter: statement.q as Document,
          limit: statement.limit as number,
        });
        for (const doc of victims) collection?.delete(doc);
        n += victims.length;
      },
    );
    return withWriteErrors({ n }, writeErrors);
  },
};
