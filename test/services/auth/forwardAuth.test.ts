import { Wallet } from 'ethers';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { productParts } from '../../../productParts';
import { startForwardAuthNginx, type RunningNginx } from '../../helpers/nginx';
import { signInWithWallet } from '../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** The protected upstream: answers with the headers it received. */
function startEchoApp(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(req.headers));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('forward authentication', () => {
  let server: TestPlatform;
  let app: http.Server;
  let nginx: RunningNginx;
  const wallet = Wallet.createRandom();
  let token: string;

  beforeAll(async () => {
    server = await startTestPlatform({ SIWE_ENABLED: '1' }, productParts);
    app = await startEchoApp();
    nginx = await startForwardAuthNginx(server.platform.port, (app.address() as AddressInfo).port);
    token = (await signInWithWallet(server.url, wallet)).body.token;
  });
  afterAll(async () => {
    await nginx.stop();
    await new Promise((resolve) => app.close(resolve));
    await server.stop();
  });

  it('answers /auth/forward with the identity headers for a valid session', async () => {
    const res = await request(server.url).get('/auth/forward').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-wallet-address']).toBe(wallet.address);
    expect(res.headers['x-wallet-ens']).toBe('');
    expect(res.headers['x-user-tier']).toBe('2 Verified');
    expect(res.headers['x-user-roles']).toBe('player');
  });

  it('answers /auth/forward with 401 without a valid session', async () => {
    expect((await request(server.url).get('/auth/forward')).status).toBe(401);
    expect(
      (await request(server.url).get('/auth/forward').set('Authorization', 'Bearer fps_forged')).status,
    ).toBe(401);
  });

  it('lets nginx pass a signed-in request upstream with the identity headers', async () => {
    const res = await request(nginx.url).get('/dashboard?x=1').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body['x-wallet-address']).toBe(wallet.address);
    // nginx does not send a header whose value is empty: no ENS name, no X-Wallet-ENS upstream.
    expect(res.body['x-wallet-ens']).toBeUndefined();
    expect(res.body['x-user-id']).toMatch(/^[0-9a-f]{24}$/);
  });

  it('lets nginx refuse anonymous and forged requests with a problem-JSON 401', async () => {
    for (const auth of [undefined, 'Bearer fps_forged']) {
      const req = request(nginx.url)
        .get('/dashboard')
        .set('X-Wallet-Address', '0x000000000000000000000000000000000000dEaD');
      if (auth) req.set('Authorization', auth);
      const res = await req;
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.text)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    }
  });

  it('replaces identity headers a client tries to forge', async () => {
    const res = await request(nginx.url)
      .get('/dashboard')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Wallet-Address', '0x000000000000000000000000000000000000dEaD');
    expect(res.body['x-wallet-address']).toBe(wallet.address);
  });
});
