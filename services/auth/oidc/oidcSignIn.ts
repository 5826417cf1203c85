import * as oidc from 'openid-client';
import { Types } from 'mongoose';
import { DependencyUnavailableError } from '../../../platform/errors';
import { authError } from '../errors';
import type { EphemeralStore } from '../../../platform/stores/ephemeralStore';
import type { Accounts } from '../accounts';
import type { IssuedSession, Sessions } from '../sessions';

export interface OidcOptions {
  issuerUrl: string;
  clientId: string;
  /** Absent for a public client (PKCE only). */
  clientSecret?: string;
  redirectUri: string;
  scopes: string;
  sessionTtlSeconds: number;
  /** Allow an http:// issuer (local development and tests only). */
  allowInsecureIssuer: boolean;
}

/** What is remembered between the redirect to the provider and its callback, keyed by `state`. */
export interface PendingLogin {
  codeVerifier: string;
  nonce: string;
  linkTo?: string;
}

/** Seconds a user has to complete the provider's login page. */
const PENDING_TTL_SECONDS = 600;

/**
 * OpenID Connect single sign-on (authorization code with PKCE and nonce), the fallback sign-in of SPEC 5. The
 * provider's metadata is discovered on first use. An SSO identity is keyed by issuer and subject.
 */
export class OidcSignIn {
  private configuration?: Promise<oidc.Configuration>;

  constructor(
    private readonly options: OidcOptions | undefined,
    private readonly pending: EphemeralStore<PendingLogin>,
    private readonly accounts: Accounts,
    private readonly sessions: Sessions,
  ) {}

  /** Starts a login (or, with `linkTo`, the linking of an SSO identity): returns the provider URL to open. */
  async start(linkTo?: Types.ObjectId): Promise<{ authorizationUrl: string; state: string }> {
    const { options, config } = await this.ready();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await this.pending.put(
      state,
      { codeVerifier, nonce, linkTo: linkTo?.toHexString() },
      PENDING_TTL_SECONDS,
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: options.redirectUri,
      scope: options.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorizationUrl: url.href, state };
  }

  /** Completes a login from the provider's redirect; `query` is the callback's query string (`code`, `state`). */
  async complete(query: string): Promise<IssuedSession> {
    const { options, config } = await this.ready();
    const callbackUrl = new URL(options.redirectUri);
    callbackUrl.search = query;
    const state = callbackUrl.searchParams.get('state') ?? '';
    const pending = state ? await this.pending.take(state) : undefined;
    if (!pending) {
      throw authError('OIDC_STATE_INVALID', 'Unknown or expired login state');
    }
    let claims: oidc.IDToken | undefined;
    let email: string | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
      email = typeof claims?.email === 'string' ? claims.email : undefined;
      // Many providers return scope claims from userinfo only, not in the ID token.
      if (claims && !email && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : undefined;
      }
    } catch (error) {
      throw authError(
        'OIDC_LOGIN_FAILED',
        `The identity provider did not confirm the login: ${describeFailure(error)}`,
        {
          cause: error,
        },
      );
    }
    if (!claims) throw authError('OIDC_LOGIN_FAILED', 'No ID token');
    const linkTo = pending.linkTo ? new Types.ObjectId(pending.linkTo) : undefined;
    const userId = await this.accounts.proveIdentity(
      'oidc',
      `${claims.iss}#${claims.sub}`,
      { email },
      linkTo,
    );
    return this.sessions.issue(userId, 'oidc', options.sessionTtlSeconds);
  }

  private async ready(): Promise<{ options: OidcOptions; config: oidc.Configuration }> {
    const options = this.options;
    if (!options) throw authError('OIDC_DISABLED', 'Single sign-on is not configured (OIDC_ISSUER_URL)');
    this.configuration ??= oidc
      .discovery(
        new URL(options.issuerUrl),
        options.clientId,
        options.clientSecret,
        options.clientSecret ? undefined : oidc.None(),
        options.allowInsecureIssuer ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw new DependencyUnavailableError('The identity provider', 'OIDC_UNAVAILABLE', error);
      });
    return { options, config: await this.configuration };
  }
}

/**
 * The provider's own error code and description when it sent one (e.g. `access_denied`); any other failure (a
 * network error whose text may name the provider's host) is described without its text, which goes to the log.
 */
function describeFailure(error: unknown): string {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    return error.error_description ? `${error.error} (${error.error_description})` : error.error;
  }
  return 'the authorization code could not be exchanged';
}
