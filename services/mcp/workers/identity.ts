import { Types } from 'mongoose';
import { z } from 'zod';
import { USER_ROLES } from '../../../models/User';
import type { IdentityRecord } from '../../../models/Identity';
import { NotFoundError, UnauthorizedError } from '../../../platform/errors';
import type { AuthService } from '../../auth';
import { presentMe, presentUser } from '../../auth';
import { MeSchema, UserSchema } from '../../auth';
import { TIER_NAMES, tierName } from '../../../access/tiers';
import { ACCESS, READ_ONLY, defineTool, type Worker } from '../toolDefinition';

const NoInput = z.strictObject({});
const userId = z.string().regex(/^[0-9a-f]{24}$/, { error: 'expected a user id (24 hex digits)' });

const UserDetailSchema = z.object({
  id: z.string(),
  display_name: z.string().optional(),
  roles: z.array(z.enum(USER_ROLES)),
  tier: z.number().int(),
  tier_name: z.enum(TIER_NAMES),
  identities: z.array(
    z.object({ kind: z.string(), subject: z.string(), verified: z.boolean(), linked_at: z.string() }),
  ),
  created_at: z.string(),
});

function presentIdentities(identities: IdentityRecord[]) {
  return identities.map((identity) => ({
    kind: identity.kind,
    subject: identity.subject,
    verified: identity.verifiedAt !== null,
    linked_at: identity.createdAt.toISOString(),
  }));
}

/** The identity worker: who am I, sign out, and the admins' user lookup and role changes. */
export function identityWorker(auth: Pick<AuthService, 'accounts' | 'sessions'>): Worker {
  const { accounts, sessions } = auth;
  return {
    name: 'identity',
    description: 'Accounts and sessions: who you are, your identity tier and roles; admins manage roles.',
    stores: ['mongo'],
    tools: [
      defineTool({
        name: 'identity_me',
        title: 'Who am I',
        description:
          'Your account: id, roles, identity tier (0 Anonymous … 4 Sovereign), linked wallets and emails, and ' +
          'how this session signed in. Tools needing a higher tier or role say so when refused.',
        input: NoInput,
        output: MeSchema,
        annotations: READ_ONLY,
        access: ACCESS.player,
        handler: async (_input, { caller }) => {
          if (caller.kind !== 'user') throw new UnauthorizedError('Sign in first');
          const user = await accounts.findUser(caller.userId);
          if (!user) throw new UnauthorizedError('Sign in first');
          return presentMe(user, await accounts.identitiesOf(user._id), caller);
        },
        summarise: (me) => `User ${me.id}: tier ${me.tier} (${me.tier_name}), roles ${me.roles.join(', ')}.`,
      }),
      defineTool({
        name: 'identity_sign_out',
        title: 'Sign out',
        description:
          'Revokes the session token this agent is using. Every later request with it, this MCP session ' +
          'included, is refused (401) until you sign in again.',
        input: NoInput,
        output: z.object({ revoked: z.boolean() }),
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.player,
        handler: async (_input, { caller }) => {
          if (caller.kind !== 'user') throw new UnauthorizedError('Sign in first');
          await sessions.revoke(caller.sessionId);
          return { revoked: true };
        },
        summarise: () => 'Signed out: this token no longer works.',
      }),
      defineTool({
        name: 'identity_user',
        title: 'Look up a user (admins)',
        description: 'A user’s roles, identity tier and linked identities, by user id.',
        input: z.strictObject({ user_id: userId }),
        output: UserDetailSchema,
        annotations: READ_ONLY,
        access: ACCESS.admin,
        handler: async ({ user_id }) => {
          const user = await accounts.findUser(new Types.ObjectId(user_id));
          if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
          return {
            id: user._id.toHexString(),
            ...(user.displayName ? { display_name: user.displayName } : {}),
            roles: user.roles,
            tier: user.tier,
            tier_name: tierName(user.tier),
            identities: presentIdentities(await accounts.identitiesOf(user._id)),
            created_at: user.createdAt.toISOString(),
          };
        },
        summarise: (user) =>
          `User ${user.id}: tier ${user.tier}, roles ${user.roles.join(', ')}, ${user.identities.length} identities.`,
      }),
      defineTool({
        name: 'identity_set_roles',
        title: 'Set a user’s roles (admins)',
        description: 'Replaces a user’s roles (player, operator, admin); player is always kept.',
        input: z.strictObject({ user_id: userId, roles: z.array(z.enum(USER_ROLES)).max(USER_ROLES.length) }),
        output: UserSchema,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
        access: ACCESS.admin,
        callsPerMinute: 30,
        handler: async ({ user_id, roles }) =>
          presentUser(await accounts.setRoles(new Types.ObjectId(user_id), roles)),
        summarise: (user) => `User ${user.id} now has roles ${user.roles.join(', ')}.`,
      }),
    ],
  };
}
