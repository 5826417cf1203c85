import type { z } from 'zod';
import { ValidationError, type FieldError } from '../errors';

/** Where a value came from; prefixes each failing path in `errors[]` (`body.address`, `query.limit`). */
export type InputLocation = 'body' | 'query' | 'params';

/** Converts zod issues into the problem body's `errors[]`. */
export function fieldErrors(location: InputLocation, error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
}

/** Schemas for the parts of a request; a part without a schema is passed on as `undefined`. */
export type RequestSchemas = Partial<Record<InputLocation, z.ZodType>>;

/**
 * Parses params, query and body with their schemas. When any fails, throws one 400 ValidationError listing every
 * failing path of every part, so a client can fix all of them at once.
 */
export function parseRequest(
  schemas: RequestSchemas,
  request: Record<InputLocation, unknown>,
): Record<InputLocation, unknown> {
  const parsed: Record<InputLocation, unknown> = { params: undefined, query: undefined, body: undefined };
  const errors: FieldError[] = [];
  for (const location of ['params', 'query', 'body'] as const) {
    const schema = schemas[location];
    if (!schema) continue;
    const result = schema.safeParse(request[location]);
    if (result.success) parsed[location] = result.data;
    else errors.push(...fieldErrors(location, result.error));
  }
  if (errors.length > 0) {
    throw new ValidationError(`The request is invalid: ${errors.map((e) => e.path).join(', ')}`, errors);
  }
  return parsed;
}
