import type { IdentityRecord } from '../../models/Identity';
import type { UserRecord } from '../../models/User';
import type { Principal } from '../../access/principal';
import type { MeBody, SessionBody } from './schemas';
import type { IssuedSession } from './sessions';
import { tierName } from '../../access/tiers';

/** Email and SSO sign-in result. */
export function presentSession(session: IssuedSession): SessionBody {
  return {
    token: session.token,
    user_id: session.session.userId.toHexString(),
    method: session.session.method,
    issued_at: session.issuedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
  };
}

/** `GET /auth/me`: the user, their linked identities and tier. Password hashes never leave the server. */
export function presentMe(
  user: UserRecord,
  identities: IdentityRecord[],
  principal: Extract<Principal, { kind: 'user' }>,
): MeBody {
  return {
    id: user._id.toHexString(),
    ...(user.displayName ? { display_name: user.displayName } : {}),
    roles: user.roles,
    tier: user.tier,
    tier_name: tierName(user.tier),
    identities: identities.map((identity) => ({
      kind: identity.kind,
      subject: identity.subject,
      verified: identity.verifiedAt !== null,
      ...(identity.ensName ? { ens_name: identity.ensName } : {}),
      ...(identity.email ? { email: identity.email } : {}),
      linked_at: identity.createdAt.toISOString(),
    })),
    session: { method: principal.method, ...(principal.address ? { address: principal.address } : {}) },
  };
}

export function presentUser(user: UserRecord) {
  return { id: user._id.toHexString(), roles: user.roles, tier: user.tier };
}
