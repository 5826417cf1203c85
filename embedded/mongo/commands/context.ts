/**
 * What command handlers receive: the target database, the command document and the engine's shared state.
 * Handlers return the reply document (`ok: 1` added by the dispatcher) or throw a MongoCommandError.
 */
import type { Document } from 'bson';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import type { Catalog } from '../catalog/catalog';
import type { CursorRegistry } from '../cursors';
import { assertCollectionName } from '../catalog/catalog';
import { mongoError } from '../errors';

/** Engine-wide state shared by every connection. */
export interface EngineState {
  catalog: Catalog;
  cursors: CursorRegistry;
  clock: Clock;
  logger: Logger;
  /** Flushes every collection file to stable storage (for `j: true` and `fsync`). */
  syncNow(): void;
  /** Runs before each command: background work that has come due (the TTL monitor's pass). */
  beforeCommand(): void;
}

/** One command invocation. */
export interface CommandContext {
  db: string;
  command: Document;
  engine: EngineState;
  connectionId: number;
}

/** A command implementation. */
export type CommandHandler = (context: CommandContext) => Document;

/** The collection name a command targets (the value of its first field), validated. */
export function targetCollection(context: CommandContext): string {
  const name = Object.values(context.command)[0];
  assertCollectionName(context.db, name);
  return name;
}

/** A non-negative integer option, or undefined when absent. */
export function optionalCount(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw mongoError('BadValue', `${field} value must be a non-negative number`);
  }
  return Math.trunc(value);
}
