import { Wallet } from 'ethers';
import net from 'node:net';
import request from 'supertest';
import { productParts } from '../../../../productParts';
import { followLogin, OIDC_CLIENT_ID, TestOpenIdProvider } from '../../../helpers/oidcProvider';
import { signInWithWallet } from '../../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

/** A free TCP port, so the platform's redirect URI is known before it starts. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('OpenID Connect single sign-on', () => {
  const idp = new TestOpenIdProvider();
  let server: TestPlatform;
  let redirectUri: string;

  beforeAll(async () => {
    const port = await freePort();
    redirectUri = `http://127.0.0.1:${port}/auth/oidc/callback`;
    const issuer = await idp.start(redirectUri);
    server = await startTestPlatform(
      {
        PORT: String(port),
        OIDC_ISSUER_URL: issuer,
        OIDC_CLIENT_ID,
        OIDC_REDIRECT_URI: redirectUri,
        SIWE_ENABLED: '1',
      },
      productParts,
    );
  });
  afterAll(async () => {
    await server.stop();
    await idp.stop();
  });

  async function login(token?: string) {
    const start = request(server.url).post('/auth/oidc/start');
    if (token) start.set('Authorization', `Bearer ${token}`);
    const started = await start;
    expect(started.status).toBe(200);
    const authorizationUrl = new URL(started.body.authorization_url);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('state')).toBe(started.body.state);
    const callback = await followLogin(started.body.authorization_url, redirectUri);
    return request(server.url).get(`${callback.pathname}${callback.search}`);
  }

  it('signs in through the provider with PKCE and creates an SSO identity at tier 1', async () => {
    idp.nextAccount = `alice-${Date.now()}`;
    const res = await login();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.stringMatching(/^fps_/), method: 'oidc' });
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.body).toMatchObject({
      tier: 1,
      identities: [
        {
          kind: 'oidc',
          subject: `${idp.issuer}#${idp.nextAccount}`,
          email: `${idp.nextAccount}@sso.example`,
        },
      ],
    });
    const second = await login();
    expect(second.body.user_id).toBe(res.body.user_id);
  });

  it('refuses a replayed or forged callback', async () => {
    idp.nextAccount = `bob-${Date.now()}`;
    const started = await request(server.url).post('/auth/oidc/start');
    const callback = await followLogin(started.body.authorization_url, redirectUri);
    const path = `${callback.pathname}${callback.search}`;
    expect((await request(server.url).get(path)).status).toBe(200);
    const replay = await request(server.url).get(path);
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe('OIDC_STATE_INVALID');
    const forged = await request(server.url).get('/auth/oidc/callback?code=abc&state=not-a-state');
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('OIDC_STATE_INVALID');
  });

  it('answers a provider error redirect with 401 OIDC_LOGIN_FAILED and spends the state', async () => {
    const { state } = (await request(server.url).post('/auth/oidc/start').expect(200)).body;
    const query = new URLSearchParams({
      error: 'access_denied',
      error_description: 'denied',
      state,
      iss: idp.issuer,
    });
    const path = `/auth/oidc/callback?${query}`;
    const denied = await request(server.url).get(path);
    expect(denied.status).toBe(401);
    expect(denied.body.code).toBe('OIDC_LOGIN_FAILED');
    expect(denied.body.detail).toBe(
      'The identity provider did not confirm the login: access_denied (denied)',
    );
    expect((await request(server.url).get(path)).body.code).toBe('OIDC_STATE_INVALID');
  });

  it('answers a callback without code or error with 400', async () => {
    const res = await request(server.url).get('/auth/oidc/callback?state=abc');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'query.code', message: 'expected code or error' }]);
  });

  it('links an SSO identity to a signed-in wallet user, never merging an owned one', async () => {
    const walletSession = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;
    idp.nextAccount = `carol-${Date.now()}`;
    const linked = await login(walletSession);
    expect(linked.status).toBe(200);
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${walletSession}`);
    expect(me.body.tier).toBe(3);
    expect(me.body.identities.map((i: { kind: string }) => i.kind)).toEqual(['wallet', 'oidc']);

    const otherWallet = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;
    const conflict = await login(otherWallet);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDENTITY_LINKED_ELSEWHERE');
  });
});

describe('single sign-on not configured', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({}, productParts);
  });
  afterAll(() => server.stop());

  it('answers 501 OIDC_DISABLED', async () => {
    const res = await request(server.url).post('/auth/oidc/start');
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('OIDC_DISABLED');
  });
});
