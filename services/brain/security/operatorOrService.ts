import type { RequestHandler } from 'express';
import type { AuthGuard } from '../../../access/authGuard';

/**
 * Operators, admins, or the service token: the memory area's write and security routes. Users below operator get
 * 403 ROLE_REQUIRED; no credential 401.
 */
export function operatorOrService(guard: Pick<AuthGuard, 'requireRole'>): RequestHandler[] {
  const [authenticate, requireOperator] = guard.requireRole('operator');
  return [
    authenticate,
    (req, res, next) => (req.principal?.kind === 'service' ? next() : requireOperator(req, res, next)),
  ];
}
