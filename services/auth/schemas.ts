import { z } from 'zod';
import { USER_ROLES } from '../../models/User';
import { IDENTITY_KINDS } from '../../models/Identity';
import { SESSION_METHODS } from '../../models/Session';
import { TIER_NAMES } from '../../access/tiers';

const timestamp = z.iso.datetime();

export const SessionSchema = z
  .object({
    token: z.string(),
    user_id: z.string(),
    method: z.enum(SESSION_METHODS),
    issued_at: timestamp,
    expires_at: timestamp,
  })
  .meta({ id: 'Session' });

export const IdentitySchema = z
  .object({
    kind: z.enum(IDENTITY_KINDS),
    subject: z.string().meta({ description: 'Wallet address, email address, or SSO issuer#subject' }),
    verified: z.boolean(),
    ens_name: z.string().optional(),
    email: z.string().optional(),
    linked_at: timestamp,
  })
  .meta({ id: 'Identity' });

export const MeSchema = z
  .object({
    id: z.string(),
    display_name: z.string().optional(),
    roles: z.array(z.enum(USER_ROLES)),
    tier: z.number().int().min(0).max(4),
    tier_name: z.enum(TIER_NAMES),
    identities: z.array(IdentitySchema),
    session: z.object({ method: z.enum(SESSION_METHODS), address: z.string().optional() }),
  })
  .meta({ id: 'Me' });

export const UserIdParamsSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/, { error: 'expected a user id' }),
});

export const RolesRequestSchema = z
  .object({ roles: z.array(z.enum(USER_ROLES)).max(USER_ROLES.length) })
  .meta({ id: 'RolesRequest' });

export const UserSchema = z
  .object({ id: z.string(), roles: z.array(z.enum(USER_ROLES)), tier: z.number().int() })
  .meta({ id: 'User' });

export type SessionBody = z.infer<typeof SessionSchema>;
export type MeBody = z.infer<typeof MeSchema>;
