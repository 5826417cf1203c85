import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import { sessionModel } from '../../../../models/Session';
import { ManualClock } from '../../../../platform/clock';
import { productParts } from '../../../../productParts';
import { buildSiweMessage, type SiweMessageFields } from '../../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

/**
 * Wallet sign-in on one process without Redis (in-process nonce store and replay window), with a manual clock, a
 * short nonce TTL and a required chain.
 */
describe('wallet sign-in without Redis', () => {
  const clock = new ManualClock(Date.now());
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      {
        SIWE_ENABLED: '1',
        SIWE_NONCE_TTL_SECONDS: '60',
        SIWE_CHAIN_ID: '8453',
      },
      productParts,
      clock,
    );
  });
  afterAll(() => server.stop());

  async function proof(wallet: BaseWallet, overrides: Partial<SiweMessageFields> = {}) {
    const { body } = await request(server.url).post('/auth/wallet/nonce').expect(201);
    const message = buildSiweMessage(wallet, body.nonce, overrides);
    return {
      address: wallet.address,
      nonce: body.nonce,
      message,
      signature: await wallet.signMessage(message),
    };
  }
  const verify = (body: object) => request(server.url).post('/auth/wallet/verify').send(body);

  it('refuses a nonce once SIWE_NONCE_TTL_SECONDS have passed (401 SIWE_NONCE_UNKNOWN)', async () => {
    const wallet = Wallet.createRandom();
    const fresh = await proof(wallet);
    const stale = await proof(wallet);
    clock.advance(59_000);
    expect((await verify(fresh)).status).toBe(202);
    clock.advance(1_000);
    const res = await verify(stale);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 'SIWE_NONCE_UNKNOWN',
      detail: 'Unknown or expired nonce: request a new one',
    });
  });

  it('yields exactly one session from concurrent verifies of one nonce', async () => {
    const wallet = Wallet.createRandom();
    const body = await proof(wallet);
    const results = await Promise.all(Array.from({ length: 6 }, () => verify(body)));
    expect(results.map((r) => r.status).sort()).toEqual([202, 401, 401, 401, 401, 401]);
    expect(new Set(results.filter((r) => r.status === 401).map((r) => r.body.code))).toEqual(
      new Set(['SIWE_NONCE_REPLAYED']),
    );
    const sessions = sessionModel(server.platform.stores.mongo!);
    expect(await sessions.countDocuments({ address: wallet.address })).toBe(1);
  });

  it('answers a message for another chain than SIWE_CHAIN_ID with 401 SIWE_CHAIN_MISMATCH', async () => {
    const wallet = Wallet.createRandom();
    const wrongChain = await proof(wallet, { chainId: 1 });
    const res = await verify(wrongChain);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 'SIWE_CHAIN_MISMATCH',
      detail: 'The message must be for chain 8453',
    });
    expect((await verify(await proof(wallet, { chainId: 8453 }))).status).toBe(202);
  });
});

describe('wallet replay monitoring without Redis', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', SIWE_REPLAY_CAP: '2', SIWE_REPLAY_WINDOW_SECONDS: '600' },
      productParts,
    );
  });
  afterAll(() => server.stop());

  /** A metric's value (metrics are per test file, shared by both platforms here: compare differences). */
  const metric = async (name: string) => {
    const text = (await request(server.url).get('/metrics')).text;
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
  };

  it('counts every replay; past SIWE_REPLAY_CAP in the window it raises the over-cap metric and logs a warning', async () => {
    const wallet = Wallet.createRandom();
    const { body: issued } = await request(server.url).post('/auth/wallet/nonce').expect(201);
    const message = buildSiweMessage(wallet, issued.nonce);
    const body = {
      address: wallet.address,
      nonce: issued.nonce,
      message,
      signature: await wallet.signMessage(message),
    };
    const replay = async () => {
      const res = await request(server.url).post('/auth/wallet/verify').send(body);
      expect(res.body.code).toBe('SIWE_NONCE_REPLAYED');
    };
    await request(server.url).post('/auth/wallet/verify').send(body).expect(202);
    const total = await metric('siwe_replays_total');
    const overCap = await metric('siwe_replays_over_cap_total');
    const warnings = () => server.logs.withMessage('SIWE replay cap exceeded');

    await replay();
    await replay();
    expect(await metric('siwe_replays_total')).toBe(total + 2);
    expect(await metric('siwe_replays_in_window')).toBe(2);
    expect(await metric('siwe_replays_over_cap_total')).toBe(overCap);
    expect(warnings()).toEqual([]);

    await replay();
    expect(await metric('siwe_replays_total')).toBe(total + 3);
    expect(await metric('siwe_replays_in_window')).toBe(3);
    expect(await metric('siwe_replays_over_cap_total')).toBe(overCap + 1);
    expect(warnings()).toEqual([
      expect.objectContaining({
        level: 'warn',
        component: 'auth',
        address: wallet.address,
        nonce: issued.nonce,
        replaysInWindow: 3,
        cap: 2,
        windowSeconds: 600,
      }),
    ]);
  });
});
