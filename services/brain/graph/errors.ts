import { errorFactory } from '../../../platform/errors';

/** Every code the graph routes answer with (besides auth, memory subject codes and VALIDATION_FAILED). */
export const GRAPH_ERRORS = {
  GRAPH_ENTITY_NOT_FOUND: { status: 404, title: 'Not Found' },
} as const;

/** `graphError('CODE', detail)`: the AppError that code answers with. */
export const graphError = errorFactory(GRAPH_ERRORS);
