/**
 * MongoDB server errors as the engine reports them: the numeric `code`, its `codeName` and `errmsg`, plus any
 * extra reply fields (e.g. `keyPattern`/`keyValue` on a duplicate key). Command handlers throw these; the
 * dispatcher turns them into `{ ok: 0, errmsg, code, codeName }` replies and write handlers into `writeErrors`.
 */

/** The error codes the engine uses, named as MongoDB names them (src/mongo/base/error_codes.yml). */
export const ErrorCode = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CommandNotSupported: 115,
  CannotIndexParallelArrays: 171,
  DuplicateKey: 11000,
  UnrecognizedPipelineStage: 40324,
  ChangeStreamNotSupported: 40573,
} as const;

export type ErrorCodeName = keyof typeof ErrorCode;

const codeNames = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/** MongoDB reports codes that have no registered name as `Location<code>`. */
function codeNameOf(code: number): string {
  if (code === ErrorCode.UnrecognizedPipelineStage || code === ErrorCode.ChangeStreamNotSupported) {
    return `Location${code}`;
  }
  return codeNames.get(code) ?? `Location${code}`;
}

/** A command failure carrying MongoDB's error shape. `extra` fields are copied into the reply as-is. */
export class MongoCommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly extra: Record<string, unknown>;

  constructor(code: number, errmsg: string, extra: Record<string, unknown> = {}) {
    super(errmsg);
    this.name = 'MongoCommandError';
    this.code = code;
    this.codeName = codeNameOf(code);
    this.extra = extra;
  }

  /** The `{ ok: 0, ... }` reply body for this error. */
  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** The `writeErrors[]` entry for this error at batch position `index`. */
  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

/** Shorthand for `new MongoCommandError(ErrorCode[name], errmsg, extra)`. */
export function mongoError(
  name: ErrorCodeName,
  errmsg: string,
  extra?: Record<string, unknown>,
): MongoCommandError {
  return new MongoCommandError(ErrorCode[name], errmsg, extra);
}

/**
 * Any error thrown inside a command as a MongoCommandError: mingo's query/aggregation errors become BadValue
 * (what MongoDB answers for a malformed operator), anything else an InternalError with its message.
 */
export function asMongoError(error: unknown): MongoCommandError {
  if (error instanceof MongoCommandError) return error;
  if (error instanceof Error && error.constructor.name === 'MingoError') {
    const stage = /unregistered pipeline operator (\$\w+)/.exec(error.message);
    if (stage) {
      return mongoError('UnrecognizedPipelineStage', `Unrecognized pipeline stage name: '${stage[1]}'`);
    }
    const operator = /unknown query operator (\$\w+)/.exec(error.message);
    if (operator) return mongoError('BadValue', `unknown operator: ${operator[1]}`);
    const conflict = /^updating the path '(.+)' would create a conflict at '(.+)'$/.exec(error.message);
    if (conflict) {
      return mongoError(
        'ConflictingUpdateOperators',
        `Updating the path '${conflict[1]}' would create a conflict at '${conflict[2]}'`,
      );
    }
    return mongoError('BadValue', error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return mongoError('InternalError', message);
}
