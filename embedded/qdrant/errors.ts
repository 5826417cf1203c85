/**
 * An error answered in Qdrant's wire shape: `{status: {error: message}, time}` with Qdrant's HTTP status.
 * `message` is exactly the text a real Qdrant puts in `status.error` for the same failure, so clients that
 * match on it (or just log it) see what they would see in production. It belongs to the engine, not to the
 * platform's HTTP errors: the engine's own server renders it, and a platform caller only ever sees Qdrant's
 * client error.
 */
export class QdrantApiError extends Error {
  constructor(
    /** Qdrant's HTTP status for the failure. */
    readonly status: number,
    /** A stable code naming the failure (`QDRANT_COLLECTION_NOT_FOUND`), for logs and tests. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'QdrantApiError';
  }
}

/** 404 for an unknown collection, with Qdrant's wording. */
export function collectionNotFound(name: string): QdrantApiError {
  return new QdrantApiError(
    404,
    'QDRANT_COLLECTION_NOT_FOUND',
    `Not found: Collection \`${name}\` doesn't exist!`,
  );
}

/** 409 when creating a collection whose name is taken (Qdrant >= 1.8). */
export function collectionAlreadyExists(name: string): QdrantApiError {
  return new QdrantApiError(
    409,
    'QDRANT_COLLECTION_EXISTS',
    `Wrong input: Collection \`${name}\` already exists!`,
  );
}

/** 404 when an operation addresses a point id that is not stored. */
export function pointNotFound(id: number | string): QdrantApiError {
  return new QdrantApiError(404, 'QDRANT_POINT_NOT_FOUND', `Not found: No point with id ${id} found`);
}

/** 400 "Wrong input": the request is well-formed but cannot apply to this collection. */
export function wrongInput(description: string): QdrantApiError {
  return new QdrantApiError(400, 'QDRANT_WRONG_INPUT', `Wrong input: ${description}`);
}

/** 400 for a vector whose length differs from the collection's configured size. */
export function vectorDimensionError(expected: number, got: number): QdrantApiError {
  return wrongInput(`Vector dimension error: expected dim: ${expected}, got ${got}`);
}

/** 400 for a vector name the collection does not define (`""` is the default, unnamed vector). */
export function unknownVectorName(name: string): QdrantApiError {
  return wrongInput(`Not existing vector name error: ${name}`);
}

/** 400 for a body that is not JSON or does not have the request's shape (serde's "Format error"). */
export function formatError(description: string): QdrantApiError {
  return new QdrantApiError(400, 'QDRANT_FORMAT_ERROR', `Format error in JSON body: ${description}`);
}

/** 422 for a body of the right shape whose values break a documented bound (Qdrant's validator errors). */
export function validationError(
  where: 'JSON body' | 'path parameters' | 'query parameters',
  issues: string[],
) {
  return new QdrantApiError(
    422,
    'QDRANT_VALIDATION_ERROR',
    `Validation error in ${where}: [${issues.join(', ')}]`,
  );
}

/**
 * 400 for a valid Qdrant request this engine deliberately does not implement. Answering loudly keeps a caller
 * from mistaking a silent approximation for Qdrant's behaviour.
 */
export function unsupported(feature: string): QdrantApiError {
  return new QdrantApiError(
    400,
    'QDRANT_UNSUPPORTED',
    `Bad request: ${feature} is not supported by the embedded Qdrant engine`,
  );
}

/** 404 for a route Qdrant does not have or this engine does not serve. */
export function routeNotFound(method: string, path: string): QdrantApiError {
  return new QdrantApiError(404, 'QDRANT_ROUTE_NOT_FOUND', `Not found: ${method} ${path}`);
}
