/**
 * Applying an update to one document: operator documents (the common operators on plain paths directly, see
 * fastOperators.ts, the rest via mingo's updater; `$setOnInsert` is handled here since it only applies on upsert
 * inserts), replacement documents, and pipeline updates (via mingo's aggregator). Works on a copy; the stored
 * document is never mutated. Also builds the seed document of an upsert from the filter's equality conditions.
 */
import { ObjectId, type Document } from 'bson';
import { Aggregator, update as applyOperators } from 'mingo';
import { cloneDeep } from 'mingo/util';
import { compareBson, formatValue } from '../bsonValues';
import { asMongoError, mongoError } from '../errors';
import { applyFastOperators } from './fastOperators';

/** What `applyUpdate` needs besides the document. */
export interface UpdateContext {
  /** The filter that selected the document; used by the positional `$` operator. */
  filter?: Document;
  arrayFilters?: Document[];
  /** True when the document is being inserted by an upsert (enables `$setOnInsert`). */
  inserting?: boolean;
}

const UPDATE_OPERATORS = new Set([
  '$addToSet',
  '$bit',
  '$currentDate',
  '$inc',
  '$max',
  '$min',
  '$mul',
  '$pop',
  '$pull',
  '$pullAll',
  '$push',
  '$rename',
  '$set',
  '$setOnInsert',
  '$unset',
]);

/** The kind of update a `u` value describes. */
export function updateKind(update: unknown): 'pipeline' | 'operators' | 'replacement' {
  if (Array.isArray(update)) return 'pipeline';
  if (typeof update !== 'object' || update === null) {
    throw mongoError('FailedToParse', 'Update argument must be either an object or an array');
  }
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys[0].startsWith('$')) {
    const operator = keys.find((key) => key.startsWith('$'));
    if (operator)
      throw mongoError(
        'DollarPrefixedFieldName',
        `The dollar ($) prefixed field '${operator}' in '${operator}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    return 'replacement';
  }
  const unknown = keys.find((key) => !UPDATE_OPERATORS.has(key));
  if (unknown) {
    throw mongoError(
      'FailedToParse',
      `Unknown modifier: ${unknown}. Expected a valid update modifier or pipeline-style update specified as an array`,
    );
  }
  return 'operators';
}

/** Returns `doc` with `_id` as its first field. */
export function withIdFirst(doc: Document): Document {
  if (Object.keys(doc)[0] === '_id') return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** The updated copy of `doc`, or undefined when the update changes nothing. */
export function applyUpdate(
  doc: Document,
  update: Document | Document[],
  context: UpdateContext = {},
): Document | undefined {
  const kind = updateKind(update);
  let next: Document;
  try {
    if (kind === 'replacement') next = { _id: doc._id, ...(update as Document) };
    else if (kind === 'pipeline') next = runPipeline(doc, update as Document[]);
    else next = runOperators(doc, update as Document, context);
  } catch (error) {
    throw asMongoError(error);
  }
  if (next === doc) return undefined;
  if (compareBson(next._id, doc._id) !== 0 || (next._id === undefined) !== (doc._id === undefined)) {
    throw mongoError(
      'ImmutableField',
      kind === 'replacement'
        ? `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(next._id)}`
        : "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  if (kind !== 'operators' && compareBson(next, doc) === 0) return undefined;
  return withIdFirst(next);
}

function runOperators(doc: Document, update: Document, context: UpdateContext): Document {
  const { $setOnInsert: onInsert, ...operators } = update;
  if (context.inserting && onInsert)
    operators.$set = { ...(operators.$set as Document | undefined), ...(onInsert as Document) };
  if (Object.keys(operators).length === 0) return doc;
  const fast = context.arrayFilters?.length ? undefined : applyFastOperators(doc, operators);
  if (fast) return fast;
  const copy = cloneDeep(doc) as Document;
  // mingo applies the update only where its condition matches; the filter is there for the positional `$`. An
  // upsert's new document need not match the filter's non-equality parts (`{n: {$lt: 5}}`), so it gets none.
  const condition = context.inserting ? {} : (context.filter ?? {});
  const changed = applyOperators(copy, operators, context.arrayFilters ?? [], condition, {
    cloneMode: 'deep',
  });
  return changed.length === 0 ? doc : copy;
}

function runPipeline(doc: Document, pipeline: Document[]): Document {
  const [result] = new Aggregator(pipeline).run([cloneDeep(doc) as Document]);
  if (!result) throw mongoError('BadValue', 'update pipeline produced no document');
  return result as Document;
}

function isOperatorObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  return Object.keys(value).some((key) => key.startsWith('$'));
}

/** A one-element `$in` is an equality to MongoDB (since 3.4): it seeds an upsert like `{field: value}`. */
function isSingleValueIn(values: unknown): boolean {
  return Array.isArray(values) && values.length === 1 && !(values[0] instanceof RegExp);
}

function equalityFields(filter: Document, out: [string, unknown][]): void {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition) equalityFields(clause as Document, out);
    } else if (!field.startsWith('$')) {
      if (!isOperatorObject(condition)) out.push([field, condition]);
      else if ('$eq' in (condition as Document)) out.push([field, (condition as Document).$eq]);
      else if (isSingleValueIn((condition as Document).$in))
        out.push([field, ((condition as Document).$in as unknown[])[0]]);
    }
  }
}

/**
 * The document an upsert inserts before the update applies: the filter's equality fields (dotted paths
 * expanded) and `_id`, from the filter or a new ObjectId, first.
 */
export function upsertSeed(filter: Document | undefined, update: Document | Document[]): Document {
  const fields: [string, unknown][] = [];
  if (updateKind(update) !== 'replacement') equalityFields(filter ?? {}, fields);
  else {
    const id = filter?._id;
    if (id !== undefined && !isOperatorObject(id)) fields.push(['_id', id]);
  }
  const seed: Document = {};
  const idField = fields.find(([field]) => field === '_id');
  if (idField) seed._id = idField[1];
  const others = fields.filter(([field]) => field !== '_id');
  if (others.length > 0) {
    try {
      // mingo refuses to $set `_id` (as MongoDB does), so `_id` is placed directly above.
      applyOperators(seed, { $set: Object.fromEntries(others) }, [], {}, { cloneMode: 'deep' });
    } catch (error) {
      throw asMongoError(error);
    }
  }
  const replacementId = updateKind(update) === 'replacement' ? (update as Document)._id : undefined;
  seed._id ??= replacementId ?? new ObjectId();
  return withIdFirst(seed);
}
