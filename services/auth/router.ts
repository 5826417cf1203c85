import { Types } from 'mongoose';
import type { ApiRoutes } from '../../platform/http/routes';
import type { Accounts } from './accounts';
import { userOf, type AuthGuard } from '../../access/authGuard';
import type { EnsResolver } from './ensResolver';
import { forwardHeaders } from './forwardAuth';
import { authError } from './errors';
import { presentMe, presentUser } from './presenters';
import { MeSchema, RolesRequestSchema, UserIdParamsSchema, UserSchema } from './schemas';
import type { Sessions } from './sessions';
import type { Request } from 'express';
import type { AuditEvent, AuditRecorder } from '../../models/AuditEvent';
import type { UserRecord } from '../../models/User';
import type { Clock } from '../../platform/clock';

export interface SessionRouteDependencies {
  guard: AuthGuard;
  accounts: Accounts;
  sessions: Sessions;
  ens: EnsResolver;
  /** Where role changes are recorded (the platform's audit log). */
  audit?: AuditRecorder;
  clock: Clock;
}

/** Session routes: who am I, sign out, forward auth for a reverse proxy, and role management for admins. */
export function registerSessionRoutes(routes: ApiRoutes, deps: SessionRouteDependencies): void {
  const { guard, accounts, sessions } = deps;

  routes.add({
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user, their linked identities and identity tier',
    tags: ['auth'],
    security: 'bearer',
    middleware: guard.requireUser,
    responses: { 200: { description: 'The user', schema: MeSchema } },
    handler: async ({ req }) => {
      const principal = userOf(req);
      const user = principal && (await accounts.findUser(principal.userId));
      if (!principal || !user) throw authError('UNAUTHENTICATED', 'Sign in first');
      return { status: 200, body: presentMe(user, await accounts.identitiesOf(user._id), principal) };
    },
  });

  routes.add({
    method: 'post',
    path: '/auth/logout',
    summary: 'Revoke the current session',
    tags: ['auth'],
    security: 'bearer',
    middleware: guard.requireUser,
    responses: { 204: { description: 'Revoked' } },
    handler: async ({ req }) => {
      const principal = userOf(req);
      if (principal) await sessions.revoke(principal.sessionId);
      return { status: 204 };
    },
  });

  routes.add({
    method: 'get',
    path: '/auth/forward',
    summary: 'Forward authentication for a reverse proxy (nginx auth_request)',
    description:
      '200 with X-Wallet-Address, X-Wallet-ENS (empty when none), X-User-Id, X-User-Tier and X-User-Roles for a ' +
      'valid session; 401 otherwise.',
    tags: ['auth'],
    security: 'bearer',
    middleware: guard.requireUser,
    responses: { 200: { description: 'Authenticated; identity in the response headers' } },
    handler: async ({ req }) => {
      const principal = userOf(req);
      if (!principal) throw authError('UNAUTHENTICATED', 'Sign in first');
      return { status: 200, headers: { ...(await forwardHeaders(principal, accounts, deps.ens)) } };
    },
  });

  routes.add({
    method: 'put',
    path: '/auth/users/:id/roles',
    summary: "Replace a user's roles (admins only); player is always kept",
    tags: ['auth', 'admin'],
    security: 'admin',
    middleware: guard.requireRole('admin'),
    request: { params: UserIdParamsSchema, body: RolesRequestSchema },
    responses: {
      200: { description: 'Updated user', schema: UserSchema },
      404: { description: 'No such user' },
    },
    handler: async ({ params, body, req }) => {
      const user = await accounts.setRoles(new Types.ObjectId(params.id), body.roles);
      deps.audit?.record(roleChange(req, deps.clock, user));
      return { status: 200, body: presentUser(user) };
    },
  });
}

/** The audit event of an admin replacing a user's roles. */
function roleChange(req: Request, clock: Clock, user: UserRecord): AuditEvent {
  return {
    at: new Date(clock.now()),
    actor: `user:${userOf(req)?.userId.toHexString() ?? 'unknown'}`,
    kind: 'auth.roles_changed',
    target: `user:${user._id.toHexString()}`,
    outcome: 'ok',
    ip: req.ip ?? null,
    request_id: req.id ?? null,
    details: { roles: user.roles },
  };
}
