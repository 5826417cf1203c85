import type { z } from 'zod';
import { formatError } from '../errors';

/**
 * Validates a request body with zod; a mismatch becomes Qdrant's 400 "Format error in JSON body" (the text
 * after the prefix is zod's description, not serde's, but status and shape match).
 */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw formatError(`${where}${issue.message}`);
}
