/**
 * The `update` command: operator, replacement and pipeline updates, `multi`, `upsert` (seeded from the
 * filter's equality fields) and `arrayFilters`; replies with `n`, `nModified` and `upserted[]`.
 */
import type { Document } from 'bson';
import { mongoError } from '../errors';
import type { Catalog } from '../catalog/catalog';
import { selectDocuments } from '../query/documentQuery';
import { applyUpdate, updateKind, upsertSeed } from '../query/updateDocument';
import type { CommandHandler } from './context';
import { targetCollection } from './context';
import { runWriteBatch, withWriteErrors } from './writeBatch';

/** Outcome of one update statement. */
export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
}

/** Runs one update statement against `db.name`. */
export function runUpdateStatement(
  catalog: Catalog,
  db: string,
  name: string,
  statement: Document,
): UpdateOutcome {
  const filter = (statement.q ?? {}) as Document;
  const update = statement.u as Document | Document[];
  const kind = updateKind(update);
  if (statement.multi && kind === 'replacement') {
    throw mongoError('FailedToParse', 'multi update is not supported for replacement-style update');
  }
  const arrayFilters = statement.arrayFilters as Document[] | undefined;
  const collection = catalog.get(db, name);
  const matches = selectDocuments(collection, {
    filter,
    sort: statement.sort as Document,
    limit: statement.multi ? 0 : 1,
  });
  let modified = 0;
  for (const doc of matches) {
    const next = applyUpdate(doc, update, { filter, arrayFilters });
    if (!next) continue;
    collection?.replace(doc, next);
    modified += 1;
  }
  if (matches.length > 0 || !statement.upsert) return { matched: matches.length, modified };
  const seed = upsertSeed(filter, update);
  const inserted = applyUpdate(seed, update, { filter, arrayFilters, inserting: true }) ?? seed;
  catalog.getOrCreate(db, name).collection.insert(inserted);
  return { matched: 0, modified: 0, upsertedId: inserted._id };
}

/** Handlers by command name. */
export const updateCommands: Record<string, CommandHandler> = {
  update: (context) => {
    const name = targetCollection(context);
    let n = 0;
    let nModified = 0;
    const upserted: Document[] = [];
    const writeErrors = runWriteBatch<Document>(
      context.command.updates,
      context.command.ordered !== false,
      (statement, index) => {
        const outcome = runUpdateStatement(context.engine.catalog, context.db, name, statement);
        n += outcome.matched;
        nModified += outcome.modified;
        if (outcome.upsertedId !== undefined) {
          n += 1;
          upserted.push({ index, _id: outcome.upsertedId });
        }
      },
    );
    const reply: Document = { n, nModified };
    if (upserted.length > 0) reply.upserted = upserted;
    return withWriteErrors(reply, writeErrors);
  },
};
