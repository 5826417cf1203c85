/** Collection-level commands: `create`, `listCollections`, `drop`. Capped collections, views and time series are refused. */
import type { Document } from 'bson';
import type { CommandHandler } from './context';
import { targetCollection } from './context';
import { mongoError } from '../errors';
import { compileFilter } from '../query/documentQuery';
import { ID_INDEX } from '../catalog/indexSpec';

/** `create` options that need storage features the engine does not have. */
const UNSUPPORTED_OPTIONS = [
  'capped',
  'viewOn',
  'timeseries',
  'clusteredIndex',
  'changeStreamPreAndPostImages',
];
/** Fields of a `create` command that are not collection options. */
const COMMAND_FIELDS = new Set([
  'create',
  '$db',
  'lsid',
  'writeConcern',
  '$readPreference',
  '$clusterTime',
  'comment',
]);

/** Handlers by command name. */
export const collectionCommands: Record<string, CommandHandler> = {
  create: (context) => {
    const name = targetCollection(context);
    const unsupported = UNSUPPORTED_OPTIONS.find((option) => context.command[option]);
    if (unsupported) {
      throw mongoError(
        'CommandNotSupported',
        `create option '${unsupported}' is not supported by the embedded MongoDB engine`,
      );
    }
    const options = Object.fromEntries(
      Object.entries(context.command).filter(([key]) => !COMMAND_FIELDS.has(key)),
    );
    context.engine.catalog.create(context.db, name, options);
    return {};
  },
  listCollections: ({ db, command, engine }) => {
    const entries = engine.catalog.collections(db).map((collection) =>
      command.nameOnly
        ? { name: collection.meta.name, type: 'collection' }
        : {
            name: collection.meta.name,
            type: 'collection',
            options: collection.meta.options,
            info: { readOnly: false, uuid: collection.meta.uuid },
            idIndex: ID_INDEX,
          },
    );
    const matches = compileFilter(command.filter as Document | undefined);
    const batchSize = (command.cursor as Document | undefined)?.batchSize as number | undefined;
    const cursor = engine.cursors.open(`${db}.$cmd.listCollections`, entries.filter(matches), batchSize);
    return { cursor };
  },
  drop: (context) => {
    const name = targetCollection(context);
    const collection = context.engine.catalog.get(context.db, name);
    const nIndexesWas = collection?.indexSpecs().length;
    context.engine.catalog.drop(context.db, name);
    // Since MongoDB 7.0 dropping a missing collection succeeds.
    return nIndexesWas === undefined ? {} : { ns: `${context.db}.${name}`, nIndexesWas };
  },
};
