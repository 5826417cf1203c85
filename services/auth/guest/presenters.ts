import type { Types } from 'mongoose';
import type { DisplayNameBody, GuestSessionBody } from './schemas';
import type { GuestSession } from './guestSignIn';

/** `POST /auth/guest`: the guest's session. */
export function presentGuestSession(session: GuestSession): GuestSessionBody {
  return {
    token: session.token,
    user_id: session.session.userId.toHexString(),
    method: 'guest',
    display_name: session.displayName,
    issued_at: session.issuedAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
  };
}

/** `PUT /auth/me`: the user's new name. */
export function presentDisplayName(userId: Types.ObjectId, name: string): DisplayNameBody {
  return { id: userId.toHexString(), display_name: name };
}
