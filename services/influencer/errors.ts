import { ConflictError, NotFoundError } from '../../platform/errors';
import { AppError } from '../../platform/errors';

/** Stable error codes of the influencer brain, with their statuses in one place. */
export const INFLUENCER_ERRORS = {
  POST_NOT_FOUND: 404,
  ENTITY_NOT_FOUND: 404,
  ENGAGEMENT_CONFLICT: 409,
  NO_SOURCES: 422,
} as const;

/** 404: no post of this creator with this id. */
export class PostNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`No post ${id} of yours`, 'POST_NOT_FOUND');
  }
}

/** 404: the knowledge graph has no entity of this name. */
export class EntityNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`No entity named ${name} in the knowledge graph`, 'ENTITY_NOT_FOUND');
  }
}

/** 409: a reading for this post and time was recorded with other figures. */
export class EngagementConflictError extends ConflictError {
  constructor() {
    super('Engagement for this post and time was already recorded with other figures', 'ENGAGEMENT_CONFLICT');
  }
}

/** 422: nothing to draw a draft from; the generator never writes without sources. */
export class NoSourcesError extends AppError {
  constructor(topic: string) {
    super(422, 'NO_SOURCES', 'No sources', {
      detail: `Nothing in the knowledge base or your posts is about "${topic}"; no draft is written without sources`,
    });
  }
}
