import { errorFactory, type AppError } from '../../platform/errors';

/** Every code the influencer brain answers with beyond the platform's own, and how each answers, in one place. */
export const INFLUENCER_ERRORS = {
  POST_NOT_FOUND: { status: 404, title: 'Not Found' },
  ENTITY_NOT_FOUND: { status: 404, title: 'Not Found' },
  ENGAGEMENT_CONFLICT: { status: 409, title: 'Conflict' },
  NO_SOURCES: { status: 422, title: 'No sources' },
  POST_INDEX_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const;

/** `influencerError('CODE', detail)`: the AppError that code answers with. */
export const influencerError = errorFactory(INFLUENCER_ERRORS);

/** 404: no post of this creator with this id. */
export function postNotFound(id: string): AppError {
  return influencerError('POST_NOT_FOUND', `No post ${id} of yours`);
}

/** 404: the knowledge graph has no entity of this name. */
export function entityNotFound(name: string): AppError {
  return influencerError('ENTITY_NOT_FOUND', `No entity named ${name} in the knowledge graph`);
}

/** 409: a reading for this post and time was recorded with other figures. */
export function engagementConflict(): AppError {
  return influencerError(
    'ENGAGEMENT_CONFLICT',
    'Engagement for this post and time was already recorded with other figures',
  );
}

/** 422: nothing to draw a draft from; the generator never writes without sources. */
export function noSources(topic: string): AppError {
  return influencerError(
    'NO_SOURCES',
    `Nothing in the knowledge base or your posts is about "${topic}"; no draft is written without sources`,
  );
}

/** 503: the vector store did not take the post's vector; nothing was stored. */
export function postIndexUnavailable(): AppError {
  return influencerError(
    'POST_INDEX_UNAVAILABLE',
    'Your post could not be indexed for recall right now and was not stored; retry later',
  );
}
