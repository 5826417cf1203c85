import { Wallet } from 'ethers';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { productParts } from '../../../productParts';
import { freePort, startForwardAuthNginx, type RunningNginx } from '../../helpers/nginx';
import { buildSiweMessage, signInWithWallet } from '../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** The protected upstream: answers with the method, headers and body it received. */
function startEchoApp(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
    });
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
    expect(res.body.headers['x-wallet-address']).toBe(wallet.address);
    // nginx does not send a header whose value is empty: no ENS name, no X-Wallet-ENS upstream.
    expect(res.body.headers['x-wallet-ens']).toBeUndefined();
    expect(res.body.headers['x-user-id']).toMatch(/^[0-9a-f]{24}$/);
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

  it('checks requests of any method with a GET and passes the method and body upstream', async () => {
    const res = await request(nginx.url)
      .post('/orders')
      .set('Authorization', `Bearer ${token}`)
      .send({ item: 'sword' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'POST', body: '{"item":"sword"}' });
    expect(res.body.headers['x-wallet-address']).toBe(wallet.address);
  });

  it('replaces identity headers a client tries to forge', async () => {
    const res = await request(nginx.url)
      .get('/dashboard')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Wallet-Address', '0x000000000000000000000000000000000000dEaD');
    expect(res.body.headers['x-wallet-address']).toBe(wallet.address);
  });
});

describe('forward authentication and the gateway rate limit', () => {
  let server: TestPlatform;
  let app: http.Server;
  let nginx: RunningNginx;
  let token: string;

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', GATEWAY_RATE_LIMIT_PER_SECOND: '3', TRUST_PROXY: 'loopback' },
      productParts,
    );
    app = await startEchoApp();
    nginx = await startForwardAuthNginx(server.platform.port, (app.address() as AddressInfo).port);
    // Signed in from another (trusted-proxy) client address, so nginx's budget (127.0.0.1) starts untouched.
    const elsewhere = (req: request.Test) => req.set('X-Forwarded-For', '203.0.113.50');
    const wallet = Wallet.createRandom();
    const { nonce } = (await elsewhere(request(server.url).post('/auth/wallet/nonce'))).body;
    const message = buildSiweMessage(wallet, nonce);
    token = (
      await elsewhere(request(server.url).post('/auth/wallet/verify')).send({
        address: wallet.address,
        nonce,
        message,
        signature: await wallet.signMessage(message),
      })
    ).body.token;
  });
  afterAll(async () => {
    await nginx.stop();
    await new Promise((resolve) => app.close(resolve));
    await server.stop();
  });

  it('counts each client once per request, whatever X-Forwarded-For it sends, and passes 429 on', async () => {
    const responses = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        request(nginx.url)
          .get('/dashboard')
          .set('Authorization', `Bearer ${token}`)
          .set('X-Forwarded-For', `198.51.100.${n}`),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 429]);
    const passed = responses.find((r) => r.status === 200);
    expect(passed?.headers['ratelimit-policy']).toBe('3;w=1');
    expect(passed?.headers.ratelimit).toMatch(/^limit=3, remaining=[0-2], reset=1$/);
    expect(passed?.body.headers['x-forwarded-for']).toBe('127.0.0.1');
    const limited = responses.find((r) => r.status === 429);
    expect(limited?.headers['content-type']).toBe('application/problem+json');
    expect(limited?.headers['retry-after']).toBe('1');
    expect(limited?.headers.ratelimit).toBe('limit=3, remaining=0, reset=1');
    expect(JSON.parse(limited?.text ?? '')).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });
});

describe('forward authentication with the platform down', () => {
  it('answers 503 problem JSON, never letting the request through', async () => {
    const app = await startEchoApp();
    const nginx = await startForwardAuthNginx(await freePort(), (app.address() as AddressInfo).port);
    try {
      const res = await request(nginx.url).get('/dashboard').set('Authorization', 'Bearer fps_anything');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.text)).toMatchObject({ status: 503, code: 'FORWARD_AUTH_UNAVAILABLE' });
    } finally {
      await nginx.stop();
      await new Promise((resolve) => app.close(resolve));
    }
  });
});
