import type { Request } from 'express';
import { ValidationError } from '../errors';
import { z } from 'zod';

/** The idempotency key of a money-moving request (also accepted as the `Idempotency-Key` header). */
export const IdempotencyKeySchema = z
  .string()
  .trim()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only')
  .meta({
    description:
      'Unique per intended change: a retry with the same key returns the first result. Required here or as the ' +
      'Idempotency-Key header',
  });

/**
 * The idempotency key of a money-moving request: the body's `idempotency_key`, or the `Idempotency-Key` header
 * (the IETF draft's name) when the body has none. 400 when neither is given, when the header is malformed, or when
 * both are given and differ.
 */
export function idempotencyKeyOf(req: Request, fromBody: string | undefined): string {
  const key = optionalIdempotencyKeyOf(req, fromBody);
  if (key !== undefined) return key;
  throw new ValidationError('An idempotency key is required', [
    { path: 'body.idempotency_key', message: 'required (or the Idempotency-Key header)' },
  ]);
}

/** The same for requests where the key is optional (creating a listing): undefined when neither is given. */
export function optionalIdempotencyKeyOf(req: Request, fromBody: string | undefined): string | undefined {
  const header = req.get('Idempotency-Key');
  if (header === undefined) {
    if (fromBody !== undefined) return fromBody;
    return undefined;
  }
  const parsed = IdempotencyKeySchema.safeParse(header);
  if (!parsed.success)
    throw new ValidationError('The Idempotency-Key header is malformed', [
      { path: 'headers.idempotency-key', message: parsed.error.issues[0]?.message ?? 'invalid' },
    ]);
  if (fromBody !== undefined && fromBody !== parsed.data)
    throw new ValidationError('The Idempotency-Key header and body.idempotency_key differ', [
      { path: 'body.idempotency_key', message: 'differs from the Idempotency-Key header' },
    ]);
  return parsed.data;
}
