import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Provider } from 'oidc-provider';

export const OIDC_CLIENT_ID = 'forge-platform';

/**
 * A real OpenID Provider (oidc-provider) on a random loopback port for SSO tests. Its login and consent
 * interactions complete without a browser: `nextAccount` says who logs in at the next interaction.
 */
export class TestOpenIdProvider {
  nextAccount = 'alice';
  issuer = '';
  private server?: http.Server;
  private provider?: Provider;

  async start(redirectUri: string): Promise<string> {
    this.server = http.createServer();
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const provider = new Provider(this.issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT_ID,
          token_endpoint_auth_method: 'none',
          redirect_uris: [redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, email: `${id}@sso.example`, email_verified: true }),
      }),
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      features: { devInteractions: { enabled: false } },
      cookies: { keys: ['test-cookie-key-0123456789'] },
      pkce: { required: () => true },
      // Explicit lifetimes (seconds), instead of the defaults oidc-provider announces on the console.
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 600,
      },
    });
    this.provider = provider;
    const handle = provider.callback();
    this.server.on('request', (req, res) => {
      if (req.url?.startsWith('/interaction/')) void this.interact(req, res);
      else void handle(req, res);
    });
    return this.issuer;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async interact(req: http.IncomingMessage, res: http.ServerResponse) {
    const provider = this.provider as Provider;
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: this.nextAccount } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: OIDC_CLIENT_ID });
    grant.addOIDCScope('openid email profile');
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }
}

/**
 * Follows the provider's redirects like a browser (keeping its cookies) from `authorizationUrl` until it
 * redirects to `redirectUri`; returns that final URL (with `code` and `state`).
 */
export async function followLogin(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) cookies.set(name.trim(), value.join('='));
    }
    await response.arrayBuffer();
    const location = response.headers.get('location');
    if (!location) throw new Error(`login stopped at ${url} with HTTP ${response.status}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects');
}
