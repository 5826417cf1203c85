/** Database-level commands: `listDatabases`, `dropDatabase`, `dbStats`. */
import type { Document } from 'bson';
import type { CommandHandler } from './context';
import { compileFilter } from '../query/documentQuery';

/** Handlers by command name. */
export const databaseCommands: Record<string, CommandHandler> = {
  listDatabases: ({ command, engine }) => {
    const entries = engine.catalog.databaseNames().map((name) => {
      const sizeOnDisk = engine.catalog.collections(name).reduce((sum, c) => sum + c.storage.fileBytes, 0);
      return { name, sizeOnDisk, empty: false };
    });
    const matches = compileFilter(command.filter as Document | undefined);
    const selected = entries.filter(matches);
    const totalSize = selected.reduce((sum, entry) => sum + entry.sizeOnDisk, 0);
    if (command.nameOnly) return { databases: selected.map(({ name }) => ({ name })) };
    return { databases: selected, totalSize, totalSizeMb: Math.floor(totalSize / 2 ** 20) };
  },
  dropDatabase: ({ db, engine }) => {
    engine.catalog.dropDatabase(db);
    return { dropped: db };
  },
  dbStats: ({ db, engine }) => {
    const collections = engine.catalog.collections(db);
    const objects = collections.reduce((sum, c) => sum + c.count, 0);
    const storageSize = collections.reduce((sum, c) => sum + c.storage.fileBytes, 0);
    const dataSize = storageSize - collections.reduce((sum, c) => sum + c.storage.garbageBytes, 0);
    return {
      db,
      collections: collections.length,
      views: 0,
      objects,
      avgObjSize: objects ? dataSize / objects : 0,
      dataSize,
      storageSize,
      indexes: collections.reduce((sum, c) => sum + c.indexSpecs().length, 0),
      indexSize: 0,
      totalSize: storageSize,
      scaleFactor: 1,
    };
  },
};
