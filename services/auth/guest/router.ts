import type { ApiRoutes } from '../../../platform/http/routes';
import { UnauthorizedError } from '../../../platform/errors';
import { userOf, type AuthGuard } from '../../../access/authGuard';
import type { DisplayNames } from './displayNames';
import type { GuestSignIn } from './guestSignIn';
import { presentDisplayName, presentGuestSession } from './presenters';
import {
  DisplayNameRequestSchema,
  DisplayNameResponseSchema,
  GuestSessionSchema,
  GuestSignInRequestSchema,
} from './schemas';

/** Guest sign-in (`POST /auth/guest`) and choosing a display name (`PUT /auth/me`). */
export function registerGuestRoutes(
  routes: ApiRoutes,
  guest: GuestSignIn,
  names: DisplayNames,
  guard: AuthGuard,
): void {
  routes.add({
    method: 'post',
    path: '/auth/guest',
    summary: 'Play as a guest: a tier-0 account with a session (no body, or a display name)',
    description:
      'Limited per client address (GUEST_SIGNIN_PER_HOUR; 429 GUEST_SIGNIN_THROTTLED with Retry-After); 501 ' +
      'GUEST_DISABLED when GUEST_SIGNIN_ENABLED=0. Without a display name the guest gets a generated one.',
    tags: ['auth'],
    request: { body: GuestSignInRequestSchema },
    responses: {
      201: { description: 'Guest created and signed in', schema: GuestSessionSchema },
      409: { description: 'The display name is taken' },
      501: { description: 'Guest sign-in is disabled' },
    },
    handler: async ({ body, req }) => ({
      status: 201,
      body: presentGuestSession(await guest.signIn(req.ip ?? 'unknown', body?.display_name)),
    }),
  });

  routes.add({
    method: 'put',
    path: '/auth/me',
    summary: "Choose the signed-in user's display name (the world names the character after it)",
    description:
      'The name is unique case-insensitively (409 DISPLAY_NAME_TAKEN); names impersonating staff or the system ' +
      'are refused (400 DISPLAY_NAME_NOT_ALLOWED). A character already in the world takes it on its next entry.',
    tags: ['auth'],
    security: 'bearer',
    middleware: guard.requireUser,
    request: { body: DisplayNameRequestSchema },
    responses: {
      200: { description: 'Name changed', schema: DisplayNameResponseSchema },
      409: { description: 'The name is taken' },
    },
    handler: async ({ body, req }) => {
      const principal = userOf(req);
      if (!principal) throw new UnauthorizedError('Sign in first', 'UNAUTHENTICATED');
      const name = await names.assign(principal.userId, body.display_name);
      return { status: 200, body: presentDisplayName(principal.userId, name) };
    },
  });
}
