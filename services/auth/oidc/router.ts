import type { ApiRoutes } from '../../../platform/http/routes';
import { userOf, type AuthGuard } from '../../../access/authGuard';
import { presentSession } from '../presenters';
import { SessionSchema } from '../schemas';
import type { OidcSignIn } from './oidcSignIn';
import { presentOidcStart } from './presenters';
import { OidcCallbackQuerySchema, OidcStartSchema } from './schemas';

/** What both routes answer when single sign-on is off or its provider cannot be reached. */
const SSO_UNAVAILABLE = {
  501: { description: 'OIDC_DISABLED: single sign-on is not configured (OIDC_ISSUER_URL)' },
  503: { description: 'OIDC_UNAVAILABLE: the identity provider cannot be reached; retry later' },
};

/** OpenID Connect sign-on routes; both answer 501 OIDC_DISABLED without OIDC_ISSUER_URL. */
export function registerOidcRoutes(routes: ApiRoutes, sso: OidcSignIn, guard: AuthGuard): void {
  routes.add({
    method: 'post',
    path: '/auth/oidc/start',
    summary:
      'Start single sign-on: returns the identity provider URL to open (signed in: links the SSO identity)',
    tags: ['auth'],
    middleware: [guard.authenticate()],
    responses: {
      200: { description: 'Open authorization_url in the browser', schema: OidcStartSchema },
      ...SSO_UNAVAILABLE,
    },
    handler: async ({ req }) => ({
      status: 200,
      body: presentOidcStart(await sso.start(userOf(req)?.userId)),
    }),
  });

  routes.add({
    method: 'get',
    path: '/auth/oidc/callback',
    summary: "The identity provider's redirect target: completes the sign-on and opens a session",
    tags: ['auth'],
    request: { query: OidcCallbackQuerySchema },
    responses: {
      200: { description: 'Signed in', schema: SessionSchema },
      400: { description: 'Unknown or expired state' },
      401: { description: 'The provider did not confirm the login (or answered with an error)' },
      ...SSO_UNAVAILABLE,
    },
    handler: async ({ req }) => {
      const query = req.originalUrl.slice(req.originalUrl.indexOf('?'));
      return { status: 200, body: presentSession(await sso.complete(query)) };
    },
  });
}
