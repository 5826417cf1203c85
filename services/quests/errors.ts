import { NotFoundError } from '../../platform/errors';

/** Stable error codes of the quests brain, with their statuses in one place. */
export const QUEST_BRAIN_ERRORS = {
  QUEST_NOT_FOUND: 404,
} as const;

/** 404: the world has no quest with this ref. */
export class QuestNotFoundError extends NotFoundError {
  constructor(ref: string) {
    super(`No quest ${ref}`, 'QUEST_NOT_FOUND');
  }
}
