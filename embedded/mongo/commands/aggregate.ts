/**
 * The `aggregate` command, run by mingo's aggregator over the collection (a leading `$match` uses the query
 * planner). `$lookup` resolves other collections of the same database. Stages that need a replica set or
 * server-side storage (`$changeStream`, `$out`, `$merge`, ...) fail with MongoDB errors.
 */
import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { cloneDeep } from 'mingo/util';
import { asMongoError, mongoError } from '../errors';
import { selectDocuments } from '../query/documentQuery';
import type { CommandContext, CommandHandler } from './context';
import { optionalCount } from './context';

const UNSUPPORTED_STAGES = new Set([
  '$out',
  '$merge',
  '$collStats',
  '$indexStats',
  '$currentOp',
  '$listSessions',
  '$listLocalSessions',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$vectorSearch',
  '$geoNear',
]);

/** Checks every stage, including those nested in `$lookup` and `$facet` pipelines. */
function assertSupported(pipeline: unknown): asserts pipeline is Document[] {
  if (!Array.isArray(pipeline))
    throw mongoError('TypeMismatch', "'pipeline' option must be specified as an array");
  for (const stage of pipeline as Document[]) {
    const name = Object.keys(stage)[0];
    if (name === '$changeStream') {
      throw mongoError(
        'ChangeStreamNotSupported',
        'The $changeStream stage is only supported on replica sets',
      );
    }
    if (UNSUPPORTED_STAGES.has(name)) {
      throw mongoError('CommandNotSupported', `${name} is not supported by the embedded MongoDB engine`);
    }
    const body = stage[name] as Document;
    if (name === '$lookup' && body?.pipeline) assertSupported(body.pipeline);
    if (name === '$facet') for (const inner of Object.values(body ?? {})) assertSupported(inner);
  }
}

/**
 * `$count` as MongoDB defines it, `$group` by null summing 1 then dropping `_id`: over no documents it yields no
 * document (mingo's own `$count` yields `{name: 0}`). Applied inside `$facet` and `$lookup` pipelines too.
 */
function withMongoCount(pipeline: Document[]): Document[] {
  return pipeline.flatMap((stage): Document[] => {
    const name = Object.keys(stage)[0];
    const body = stage[name] as unknown;
    if (name === '$count' && typeof body === 'string') {
      return [{ $group: { _id: null, [body]: { $sum: 1 } } }, { $project: { _id: 0 } }];
    }
    if (name === '$facet' && typeof body === 'object' && body !== null) {
      const facets = Object.entries(body as Document).map(([key, inner]) => [key, withMongoCount(inner)]);
      return [{ $facet: Object.fromEntries(facets) }];
    }
    if (name === '$lookup' && Array.isArray((body as Document | null)?.pipeline)) {
      return [{ $lookup: { ...(body as Document), pipeline: withMongoCount((body as Document).pipeline) } }];
    }
    return [stage];
  });
}

function runPipeline(context: CommandContext, collectionName: string, pipeline: Document[]): Document[] {
  const { engine, db, command } = context;
  const [first] = pipeline;
  const leadingMatch = first && '$match' in first ? (first.$match as Document) : undefined;
  const source = selectDocuments(engine.catalog.get(db, collectionName), { filter: leadingMatch });
  const stages = withMongoCount(leadingMatch ? pipeline.slice(1) : pipeline);
  if (stages.length === 0) return source;
  try {
    const aggregator = new Aggregator(stages, {
      processingMode: ProcessingMode.CLONE_INPUT,
      collectionResolver: (name: string) => {
        const foreign = engine.catalog.get(db, name);
        return foreign ? [...foreign.all()].map((doc) => cloneDeep(doc) as Document) : [];
      },
      variables: command.let as Document | undefined,
    });
    return aggregator.run(source) as Document[];
  } catch (error) {
    throw asMongoError(error);
  }
}

/** Handlers by command name. */
export const aggregateCommands: Record<string, CommandHandler> = {
  aggregate: (context) => {
    const { command, db, engine } = context;
    const target = command.aggregate;
    if (command.explain)
      throw mongoError('CommandNotSupported', 'explain is not supported by the embedded MongoDB engine');
    if (typeof command.cursor !== 'object' || command.cursor === null) {
      throw mongoError(
        'FailedToParse',
        "The 'cursor' option is required, except for aggregate with the explain argument",
      );
    }
    assertSupported(command.pipeline);
    if (typeof target !== 'string') {
      throw mongoError(
        'CommandNotSupported',
        'database-level aggregation is not supported by the embedded MongoDB engine',
      );
    }
    const results = runPipeline(context, target, command.pipeline);
    const batchSize = optionalCount((command.cursor as Document).batchSize, 'batchSize');
    return { cursor: engine.cursors.open(`${db}.${target}`, results, batchSize) };
  },
};
