import { errorFactory, type AppError } from '../../platform/errors';

/** Every code the quests brain answers with beyond the platform's own, and how each answers, in one place. */
export const QUEST_BRAIN_ERRORS = {
  QUEST_NOT_FOUND: { status: 404, title: 'Not Found' },
} as const;

/** `questBrainError('CODE', detail)`: the AppError that code answers with. */
export const questBrainError = errorFactory(QUEST_BRAIN_ERRORS);

/** 404: the world has no quest with this ref. */
export function questNotFound(ref: string): AppError {
  return questBrainError('QUEST_NOT_FOUND', `No quest ${ref}`);
}
