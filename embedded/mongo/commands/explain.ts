/**
 * `explain` of a find: which access path the planner picks (IDHACK, IXSCAN or COLLSCAN) and, at the
 * `executionStats` / `allPlansExecution` verbosities, what running it examined (`totalKeysExamined`,
 * `totalDocsExamined`), so a client can check that an indexed lookup does not scan the collection.
 */
import type { Document } from 'bson';
import type { ExaminedCounters } from '../catalog/collection';
import { mongoError } from '../errors';
import { selectDocuments } from '../query/documentQuery';
import type { CommandContext, CommandHandler } from './context';
import { optionalCount } from './context';

const VERBOSITIES = new Set(['queryPlanner', 'executionStats', 'allPlansExecution']);

/** The plan tree MongoDB would show for this access path. */
function winningPlan(context: CommandContext, name: string, filter: Document): Document {
  const collection = context.engine.catalog.get(context.db, name);
  const indexName = collection?.plannedIndex(filter);
  if (indexName === '_id_') return { stage: 'IDHACK' };
  if (!indexName || !collection) return { stage: 'COLLSCAN', filter, direction: 'forward' };
  const keyPattern = collection.indexes.get(indexName)?.spec.key;
  return { stage: 'FETCH', filter, inputStage: { stage: 'IXSCAN', indexName, keyPattern } };
}

/** Runs the find and reports its counters in MongoDB's `executionStats` shape. */
function executionStats(context: CommandContext, find: Document, plan: Document): Document {
  const counters: ExaminedCounters = { keys: 0, docs: 0 };
  const started = performance.now();
  const docs = selectDocuments(
    context.engine.catalog.get(context.db, find.find as string),
    {
      filter: find.filter as Document | undefined,
      sort: find.sort as Document | undefined,
      skip: optionalCount(find.skip, 'skip'),
      limit: optionalCount(find.limit, 'limit'),
    },
    counters,
  );
  return {
    executionSuccess: true,
    nReturned: docs.length,
    executionTimeMillis: Math.round(performance.now() - started),
    totalKeysExamined: counters.keys,
    totalDocsExamined: counters.docs,
    executionStages: {
      ...plan,
      nReturned: docs.length,
      ...(plan.stage === 'COLLSCAN' ? {} : { keysExamined: counters.keys }),
      docsExamined: counters.docs,
    },
  };
}

/** Handlers by command name. */
export const explainCommands: Record<string, CommandHandler> = {
  explain: (context) => {
    const inner = context.command.explain as Document;
    if (typeof inner !== 'object' || inner === null || typeof inner.find !== 'string') {
      throw mongoError('CommandNotSupported', 'the embedded MongoDB engine explains find commands only');
    }
    const verbosity = (context.command.verbosity as string | undefined) ?? 'allPlansExecution';
    if (!VERBOSITIES.has(verbosity)) {
      throw mongoError(
        'FailedToParse',
        "verbosity string must be one of {'queryPlanner', 'executionStats', 'allPlansExecution'}",
      );
    }
    const filter = (inner.filter ?? {}) as Document;
    const plan = winningPlan(context, inner.find, filter);
    const reply: Document = {
      queryPlanner: {
        namespace: `${context.db}.${inner.find}`,
        parsedQuery: filter,
        winningPlan: plan,
        rejectedPlans: [],
      },
    };
    if (verbosity !== 'queryPlanner') reply.executionStats = executionStats(context, inner, plan);
    return reply;
  },
};
