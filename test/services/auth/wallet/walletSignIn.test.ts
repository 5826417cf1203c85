import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import { sessionModel } from '../../../../models/Session';
import { productParts } from '../../../../productParts';
import { buildSiweMessage, signInWithWallet } from '../../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const SIWE_ENV = { SIWE_ENABLED: '1', SIWE_DOMAIN: 'localhost', REDIS_URL: 'redis://127.0.0.1:6379' };

async function proof(server: TestPlatform, wallet: BaseWallet, overrides = {}) {
  const { body } = await request(server.url).post('/auth/wallet/nonce').expect(201);
  const message = buildSiweMessage(wallet, body.nonce, overrides);
  return {
    address: wallet.address,
    signature: await wallet.signMessage(message),
    nonce: body.nonce,
    message,
  };
}

describe('wallet sign-in (SIWE)', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(SIWE_ENV, productParts);
  });
  afterAll(() => server.stop());

  it('issues a hexadecimal nonce with 201', async () => {
    const res = await request(server.url).post('/auth/wallet/nonce');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('verifies a signed message with 202 and a session that works', async () => {
    const wallet = Wallet.createRandom();
    const res = await signInWithWallet(server.url, wallet);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      token: expect.stringMatching(/^fps_[A-Za-z0-9_-]{43}$/),
      address: wallet.address,
      issued_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.issued_at)).toBe(3600 * 1000);

    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      roles: ['player'],
      tier: 2,
      tier_name: 'Verified',
      identities: [{ kind: 'wallet', subject: wallet.address.toLowerCase(), verified: true }],
      session: { method: 'wallet', address: wallet.address },
    });
  });

  it('accepts the address in lowercase in the body', async () => {
    const wallet = Wallet.createRandom();
    const body = await proof(server, wallet);
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send({ ...body, address: wallet.address.toLowerCase() });
    expect(res.status).toBe(202);
    expect(res.body.address).toBe(wallet.address);
  });

  it('accepts the address in uppercase hex in the body', async () => {
    const wallet = Wallet.createRandom();
    const body = await proof(server, wallet);
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send({ ...body, address: `0x${wallet.address.slice(2).toUpperCase()}` });
    expect(res.status).toBe(202);
    expect(res.body.address).toBe(wallet.address);
  });

  it('requires the EIP-55 address inside the message, as EIP-4361 does (401 SIWE_MESSAGE_INVALID)', async () => {
    const wallet = Wallet.createRandom();
    const good = await proof(server, wallet);
    const message = good.message.replace(wallet.address, wallet.address.toLowerCase());
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send({ ...good, message, signature: await wallet.signMessage(message) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIWE_MESSAGE_INVALID');
    expect(res.body.detail).toContain('invalid EIP-55 address');
  });

  it('signs the same wallet into the same user every time', async () => {
    const wallet = Wallet.createRandom();
    const first = await signInWithWallet(server.url, wallet);
    const second = await signInWithWallet(server.url, wallet);
    const idOf = async (token: string) =>
      (await request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`)).body.id;
    expect(await idOf(first.body.token)).toBe(await idOf(second.body.token));
  });

  it('answers a replayed nonce with 401 SIWE_NONCE_REPLAYED and counts it', async () => {
    const body = await proof(server, Wallet.createRandom());
    expect((await request(server.url).post('/auth/wallet/verify').send(body)).status).toBe(202);
    const replay = await request(server.url).post('/auth/wallet/verify').send(body);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({
      code: 'SIWE_NONCE_REPLAYED',
      detail: 'This nonce was already used: request a new one',
    });
    const metrics = await request(server.url).get('/metrics');
    expect(metrics.text).toMatch(/^siwe_replays_total [1-9]\d*$/m);
  });

  it('yields exactly one session from concurrent verifies of one nonce', async () => {
    const wallet = Wallet.createRandom();
    const body = await proof(server, wallet);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => request(server.url).post('/auth/wallet/verify').send(body)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([202, 401, 401, 401, 401, 401, 401, 401]);
    expect(results.filter((r) => r.status === 401).every((r) => r.body.code === 'SIWE_NONCE_REPLAYED')).toBe(
      true,
    );
    const sessions = sessionModel(server.platform.stores.mongo!);
    expect(await sessions.countDocuments({ address: wallet.address })).toBe(1);
  });

  it('answers an unknown nonce with 401 SIWE_NONCE_UNKNOWN', async () => {
    const wallet = Wallet.createRandom();
    const message = buildSiweMessage(wallet, 'abcdef0123456789abcdef0123456789');
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send({
        address: wallet.address,
        signature: await wallet.signMessage(message),
        nonce: 'abcdef0123456789abcdef0123456789',
        message,
      });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIWE_NONCE_UNKNOWN');
  });

  it.each([
    ['signature from another key', 'SIWE_SIGNATURE_INVALID'],
    ['message domain not SIWE_DOMAIN', 'SIWE_DOMAIN_MISMATCH'],
    ['message nonce not the posted nonce', 'SIWE_NONCE_MISMATCH'],
    ['message address not the posted address', 'SIWE_ADDRESS_MISMATCH'],
    ['expired message', 'SIWE_MESSAGE_EXPIRED'],
    ['message not yet valid', 'SIWE_MESSAGE_NOT_YET_VALID'],
    ['text that is not an EIP-4361 message', 'SIWE_MESSAGE_INVALID'],
  ])('answers a %s with 401 %s and leaves the nonce usable', async (label, code) => {
    const wallet = Wallet.createRandom();
    const good = await proof(server, wallet);
    const other = Wallet.createRandom();
    const bad = { ...good };
    const resign = async (message: string) => ({
      ...good,
      message,
      signature: await wallet.signMessage(message),
    });
    switch (code) {
      case 'SIWE_SIGNATURE_INVALID':
        bad.signature = await other.signMessage(good.message);
        break;
      case 'SIWE_DOMAIN_MISMATCH':
        Object.assign(bad, await resign(buildSiweMessage(wallet, good.nonce, { domain: 'evil.example' })));
        break;
      case 'SIWE_NONCE_MISMATCH':
        Object.assign(bad, await resign(buildSiweMessage(wallet, 'ffffffffffffffffffffffffffffffff')));
        break;
      case 'SIWE_ADDRESS_MISMATCH':
        bad.address = other.address;
        break;
      case 'SIWE_MESSAGE_EXPIRED':
        Object.assign(
          bad,
          await resign(buildSiweMessage(wallet, good.nonce, { expirationTime: '2020-01-01T00:00:00Z' })),
        );
        break;
      case 'SIWE_MESSAGE_NOT_YET_VALID':
        Object.assign(
          bad,
          await resign(buildSiweMessage(wallet, good.nonce, { notBefore: '2099-01-01T00:00:00Z' })),
        );
        break;
      default:
        Object.assign(bad, await resign(`${label}\nnonce ${good.nonce}`));
    }
    const res = await request(server.url).post('/auth/wallet/verify').send(bad);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(code);
    // Nothing was consumed: the genuine proof still signs in.
    expect((await request(server.url).post('/auth/wallet/verify').send(good)).status).toBe(202);
  });

  it('answers malformed bodies with 400 listing the failing fields', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send({ address: '0x123', signature: 'zz', nonce: 'n', message: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'body.address',
      'body.signature',
      'body.nonce',
      'body.message',
    ]);
  });

  it('answers a body that is not JSON, or none, with 400', async () => {
    const garbled = await request(server.url)
      .post('/auth/wallet/verify')
      .set('Content-Type', 'application/json')
      .send('{"address": ');
    expect(garbled.status).toBe(400);
    expect(garbled.body.code).toBe('MALFORMED_JSON');
    const empty = await request(server.url).post('/auth/wallet/verify');
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('VALIDATION_FAILED');
  });

  it('rejects an unknown bearer token with 401 even on the verify route', async () => {
    const body = await proof(server, Wallet.createRandom());
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .set('Authorization', 'Bearer fps_nope')
      .send(body);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CREDENTIAL');
  });
});

describe('wallet sign-in disabled', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({ SIWE_ENABLED: '0' }, productParts);
  });
  afterAll(() => server.stop());

  it('answers both routes with 501', async () => {
    const nonce = await request(server.url).post('/auth/wallet/nonce');
    expect(nonce.status).toBe(501);
    expect(nonce.body).toMatchObject({ code: 'SIWE_DISABLED', status: 501 });
    const verify = await request(server.url).post('/auth/wallet/verify').send({
      address: Wallet.createRandom().address,
      signature: '0x00',
      nonce: 'abcdef0123456789',
      message: 'x',
    });
    expect(verify.status).toBe(501);
    expect(verify.body.code).toBe('SIWE_DISABLED');
  });

  it('answers 501 before looking at the body', async () => {
    const res = await request(server.url).post('/auth/wallet/verify').send({ address: 'nope' });
    expect(res.status).toBe(501);
    expect(res.body.code).toBe('SIWE_DISABLED');
  });
});
