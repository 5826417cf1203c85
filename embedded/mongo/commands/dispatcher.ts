/**
 * Routes a command document to its handler by the command's name (its first field), refuses what a standalone
 * MongoDB refuses (transactions) or what the engine does not implement (CommandNotFound), turns thrown errors into
 * MongoDB error replies, writes each file's records of the command in one syscall, and honours `writeConcern.j` by
 * syncing to disk before replying.
 */
import type { Document } from 'bson';
import { asMongoError, mongoError } from '../errors';
import { holdingAppends } from '../storage/collectionFile';
import { aggregateCommands } from './aggregate';
import { collectionCommands } from './collections';
import type { CommandContext, CommandHandler } from './context';
import { countCommands } from './count';
import { databaseCommands } from './databases';
import { deleteCommands } from './delete';
import { explainCommands } from './explain';
import { findCommands } from './find';
import { findAndModifyCommands } from './findAndModify';
import { handshakeCommands } from './handshake';
import { indexCommands } from './indexes';
import { insertCommands } from './insert';
import { updateCommands } from './update';

const handlers = new Map<string, CommandHandler>(
  Object.entries({
    ...handshakeCommands,
    ...databaseCommands,
    ...collectionCommands,
    ...indexCommands,
    ...insertCommands,
    ...findCommands,
    ...explainCommands,
    ...updateCommands,
    ...deleteCommands,
    ...findAndModifyCommands,
    ...aggregateCommands,
    ...countCommands,
  }),
);

/** Commands whose names MongoDB matches case-insensitively in practice (legacy spellings). */
const aliases: Record<string, string> = {
  ismaster: 'isMaster',
  buildinfo: 'buildInfo',
  findandmodify: 'findAndModify',
};

/** Runs one command and returns its reply; never throws. */
export function dispatchCommand(context: CommandContext): Document {
  const name = Object.keys(context.command)[0];
  context.engine.beforeCommand();
  try {
    if (name === undefined) throw mongoError('FailedToParse', 'Empty command document');
    const handler = handlers.get(name) ?? handlers.get(aliases[name] ?? '');
    if (!handler) throw mongoError('CommandNotFound', `no such command: '${name}'`);
    if (
      'txnNumber' in context.command ||
      'startTransaction' in context.command ||
      'autocommit' in context.command
    ) {
      throw mongoError(
        'IllegalOperation',
        'Transaction numbers are only allowed on a replica set member or mongos',
      );
    }
    const reply = holdingAppends(() => handler(context));
    const writeConcern = context.command.writeConcern as Document | undefined;
    if (writeConcern?.j === true || writeConcern?.fsync === true) context.engine.syncNow();
    return { ...reply, ok: 1 };
  } catch (error) {
    const mongo = asMongoError(error);
    if (mongo.codeName === 'InternalError')
      context.engine.logger.error({ err: error, command: name }, 'command failed');
    return mongo.toReply();
  }
}
