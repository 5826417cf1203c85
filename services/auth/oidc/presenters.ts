import type { OidcStartBody } from './schemas';

/** The started login as the client sees it: the provider URL to open and the login's state. */
export function presentOidcStart(login: { authorizationUrl: string; state: string }): OidcStartBody {
  return { authorization_url: login.authorizationUrl, state: login.state };
}
