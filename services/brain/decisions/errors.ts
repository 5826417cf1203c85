import { errorFactory } from '../../../platform/errors';

/** Every code the decision routes answer with (besides auth and VALIDATION_FAILED), with its status. */
export const DECISION_ERRORS = {
  /** A title, rationale or context the corpus would refuse as binary (a NUL, control characters): nothing stored. */
  DECISION_TEXT_BINARY: { status: 400, title: 'Invalid request' },
  DECISION_NOT_FOUND: { status: 404, title: 'Not Found' },
  DECISION_TRANSITION_INVALID: { status: 409, title: 'Conflict' },
} as const;

/** `decisionError('CODE', detail)`: the AppError that code answers with. */
export const decisionError = errorFactory(DECISION_ERRORS);

/** 409 naming the from and to states (also as `from` and `to` members of the problem body). */
export function transitionInvalid(id: string, from: string, to: string, why = '') {
  return decisionError(
    'DECISION_TRANSITION_INVALID',
    `Decision ${id} cannot go from ${from} to ${to}${why ? `: ${why}` : ''}`,
    {
      extensions: { from, to },
    },
  );
}
