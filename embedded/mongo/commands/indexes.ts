/**
 * Index commands: `createIndexes` (idempotent for identical specs, MongoDB's conflict errors otherwise, unique
 * indexes refused with E11000 when existing data has duplicates), `listIndexes`, `dropIndexes`.
 */
import type { Document } from 'bson';
import type { Collection } from '../catalog/collection';
import { normalizeIndexSpec, sameIndexOptions, type IndexSpec } from '../catalog/indexSpec';
import { formatValue } from '../bsonValues';
import { mongoError } from '../errors';
import type { CommandHandler } from './context';
import { targetCollection } from './context';

function sameKey(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.key) === JSON.stringify(b.key);
}

/** True when `spec` already exists; throws when it conflicts with an existing index. */
function alreadyExists(collection: Collection, spec: IndexSpec): boolean {
  for (const existing of collection.indexSpecs()) {
    if (existing.name === spec.name) {
      if (sameIndexOptions(existing, spec)) return true;
      throw mongoError(
        'IndexKeySpecsConflict',
        `An existing index has the same name as the requested index. Requested index: ${formatValue(spec)}, existing index: ${formatValue(existing)}`,
      );
    }
    if (sameKey(existing, spec)) {
      throw mongoError(
        'IndexOptionsConflict',
        `Index already exists with a different name: ${existing.name}`,
      );
    }
  }
  return false;
}

function requireCollection(
  db: string,
  name: string,
  collection: Collection | undefined,
  message: string,
): Collection {
  if (!collection) throw mongoError('NamespaceNotFound', `${message}: ${db}.${name}`);
  return collection;
}

/** Handlers by command name. */
export const indexCommands: Record<string, CommandHandler> = {
  createIndexes: (context) => {
    const name = targetCollection(context);
    const raw = context.command.indexes;
    if (!Array.isArray(raw) || raw.length === 0)
      throw mongoError('BadValue', 'Must specify at least one index to create');
    const specs = raw.map((entry: Document) => normalizeIndexSpec(entry));
    const { collection, created } = context.engine.catalog.getOrCreate(context.db, name);
    const numIndexesBefore = collection.indexSpecs().length;
    for (const spec of specs) {
      if (spec.name === '_id_' || JSON.stringify(spec.key) === '{"_id":1}') continue;
      if (!alreadyExists(collection, spec)) collection.addIndex(spec);
    }
    const numIndexesAfter = collection.indexSpecs().length;
    const reply: Document = { numIndexesBefore, numIndexesAfter, createdCollectionAutomatically: created };
    if (numIndexesAfter === numIndexesBefore) reply.note = 'all indexes already exist';
    return reply;
  },
  listIndexes: (context) => {
    const name = targetCollection(context);
    const collection = requireCollection(
      context.db,
      name,
      context.engine.catalog.get(context.db, name),
      'ns does not exist',
    );
    const batchSize = (context.command.cursor as Document | undefined)?.batchSize as number | undefined;
    return { cursor: context.engine.cursors.open(collection.ns, collection.indexSpecs(), batchSize) };
  },
  dropIndexes: (context) => {
    const name = targetCollection(context);
    const collection = requireCollection(
      context.db,
      name,
      context.engine.catalog.get(context.db, name),
      'ns not found',
    );
    const nIndexesWas = collection.indexSpecs().length;
    const target = context.command.index;
    const names = target === '*' ? [...collection.indexes.keys()] : resolveIndexNames(collection, target);
    for (const indexName of names) collection.dropIndex(indexName);
    return { nIndexesWas };
  },
};

function resolveIndexNames(collection: Collection, target: unknown): string[] {
  const requested = Array.isArray(target) ? target : [target];
  return requested.map((entry) => {
    const spec =
      typeof entry === 'string'
        ? collection.indexSpecs().find((candidate) => candidate.name === entry)
        : collection
            .indexSpecs()
            .find((candidate) => JSON.stringify(candidate.key) === JSON.stringify(entry));
    if (spec?.name === '_id_') throw mongoError('InvalidOptions', 'cannot drop _id index');
    if (!spec) {
      const label =
        typeof entry === 'string' ? `with name [${entry}]` : `with key pattern ${formatValue(entry)}`;
      throw mongoError('IndexNotFound', `index not found ${label}`);
    }
    return spec.name;
  });
}
