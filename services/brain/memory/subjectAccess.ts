import type { Request } from 'express';
import { userOf } from '../../../access/authGuard';
import { memoryError } from './errors';

/** The memory subject of a signed-in user. */
export function userSubject(userId: string): string {
  return `user:${userId}`;
}

/** Who is acting, for audit records: `user:<id>` or `service`. */
export function actorOf(req: Request): string {
  const user = userOf(req);
  return user ? userSubject(user.userId.toHexString()) : 'service';
}

/**
 * The subject a request acts for. A user acts for their own subject only (naming another is 403
 * MEMORY_SUBJECT_FORBIDDEN); the service token must name one (400 MEMORY_SUBJECT_REQUIRED). Call after
 * `requireBrainAuth`.
 */
export function subjectOf(req: Request, requested: string | undefined): string {
  const user = userOf(req);
  if (!user) {
    if (!requested) throw memoryError('MEMORY_SUBJECT_REQUIRED', 'The service token must name the subject');
    return requested;
  }
  const own = userSubject(user.userId.toHexString());
  if (requested && requested !== own) {
    throw memoryError('MEMORY_SUBJECT_FORBIDDEN', "A user may only use their own subject's memories");
  }
  return own;
}

/** Request facts for audit records. */
export function auditContext(req: Request) {
  return { actor: actorOf(req), requestId: req.id ?? null, ip: req.ip ?? null };
}
