import fs from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { encryptKeystoreJson, Wallet } from 'ethers';
import request from 'supertest';
import { loadConfig } from '../../../platform/config';
import { productParts } from '../../../productParts';
import { signerSettings } from '../../../services/signer/settings';
import { send } from '../../helpers/contractCalls';
import { deployContracts, testKey, type Deployment, type TestChain } from '../../helpers/evm';
import { startTestPlatform } from '../../helpers/platform';
import { SIGNER_KEYS, signerAddress } from '../../helpers/signerFixtures';
import {
  SIGNER_SERVICE_TOKEN,
  startSignerChain,
  startSignerPlatform,
  writeSecretsDir,
  type SignerPlatform,
} from '../../helpers/signerPlatform';

let chain: TestChain;
let deployment: Deployment;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  ({ chain, deployment } = await startSignerChain(2));
});

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

afterAll(async () => {
  await chain.close();
});

async function platformWith(env: Record<string, string>, target = deployment): Promise<SignerPlatform> {
  const platform = await startSignerPlatform(chain, target, env);
  cleanup.push(() => platform.stop());
  return platform;
}

async function secretsDir(files: Record<string, string>): Promise<string> {
  const dir = await writeSecretsDir(files);
  cleanup.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

function mint(platform: SignerPlatform, address = Wallet.createRandom().address) {
  return request(platform.server.url)
    .post('/api/punk-seed/mint')
    .set('Authorization', `Bearer ${SIGNER_SERVICE_TOKEN}`)
    .send({ address });
}

describe('signer configuration', () => {
  it('is off without SIGNER_CHAIN_ID: the routes exist in the product and answer 501 SIGNER_DISABLED', async () => {
    const server = await startTestPlatform({ BRAIN_SERVICE_TOKEN: SIGNER_SERVICE_TOKEN }, productParts);
    cleanup.push(() => server.stop());
    const res = await request(server.url)
      .post('/api/forge/start')
      .set('Authorization', `Bearer ${SIGNER_SERVICE_TOKEN}`)
      .send({ forger: Wallet.createRandom().address, path: 0, zenCommitted: '1' });
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({
      code: 'SIGNER_DISABLED',
      detail: 'Signature issuing is not configured on this server (SIGNER_CHAIN_ID is unset)',
    });
    const doc = (await request(server.url).get('/openapi.json')).body;
    for (const route of [
      '/api/forge/start',
      '/api/forge/claim',
      '/api/punk-seed/mint',
      '/api/signatures/reuse-reports',
    ]) {
      expect(doc.paths[route].post.security).toEqual([{ bearer: [] }]);
    }
    expect(doc.paths['/api/forge/start'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ForgeStartRequest',
    });
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });

  it('refuses half a configuration at start-up, naming the variables', () => {
    const settings = (env: Record<string, string>) => () => signerSettings(loadConfig(env));
    expect(settings({ SIGNER_RPC_URL: 'http://127.0.0.1:8545', SIGNER_SECRETS_DIR: '/run/secrets' })).toThrow(
      'SIGNER_CHAIN_ID is required when SIGNER_RPC_URL, SIGNER_SECRETS_DIR are set',
    );
    expect(settings({ SIGNER_CHAIN_ID: '84532', SIGNER_RPC_URL: 'http://127.0.0.1:8545' })).toThrow(
      'SIGNER_CHAIN_ID is set, so SIGNER_FORGE_ADDRESS, SIGNER_SEED_ADDRESS, SIGNER_SECRETS_DIR must be set too',
    );
    const address = Wallet.createRandom().address;
    const badChecksum =
      address.slice(0, 2) +
      [...address.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    expect(
      settings({
        SIGNER_CHAIN_ID: '84532',
        SIGNER_RPC_URL: 'http://127.0.0.1:8545',
        SIGNER_FORGE_ADDRESS: badChecksum,
        SIGNER_SEED_ADDRESS: address,
        SIGNER_SECRETS_DIR: '/run/secrets',
      }),
    ).toThrow('SIGNER_FORGE_ADDRESS: mixed-case address with an invalid EIP-55 checksum');
    expect(() => loadConfig({ SIGNER_CHAIN_ID: '1' })).toThrow(
      'SIGNER_CHAIN_ID: expected 8453 (Base) or 84532 (Base Sepolia)',
    );
    expect(() => loadConfig({ SIGNER_FORGE_BUFFER_SECONDS: '45' })).toThrow(
      'SIGNER_FORGE_BUFFER_SECONDS: expected an integer <= 30',
    );
  });

  it('stops the signer, not the platform, when the key is not the contracts signer (503 until fixed)', async () => {
    const wrongKey = testKey('not the signer');
    const dir = await secretsDir({ 'signer-private-key-84532': wrongKey });
    const platform = await platformWith({ SIGNER_SECRETS_DIR: dir });
    const reason =
      `TheForge on chain 84532 expects signer ${signerAddress(84532)}, but the configured key is ` +
      `${new Wallet(wrongKey).address}; fix the key configuration or rotate the contract signer (setSigner)`;
    expect(platform.server.logs.lines.filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({
        component: 'signer',
        code: 'SIGNER_ADDRESS_MISMATCH',
        msg: `signer stopped: ${reason}`,
      }),
    ]);
    const res = await mint(platform);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SIGNER_ADDRESS_MISMATCH',
      detail: `The signer is stopped: ${reason}`,
      expected: signerAddress(84532),
      actual: new Wallet(wrongKey).address,
    });
    expect(JSON.stringify(platform.server.logs.lines)).not.toContain(wrongKey.slice(2));
    expect(await platform.storedSignatures()).toEqual([]);
    expect((await request(platform.server.url).get('/healthz')).status).toBe(200);

    // The operator fixes the secret: the key provider re-reads it within a minute, and the next check starts the
    // signer without a restart.
    await fs.writeFile(path.join(dir, 'signer-private-key-84532'), SIGNER_KEYS[84532]);
    platform.clock.advance(60_000);
    expect((await mint(platform)).status).toBe(200);
  });

  it('stops the signer when the RPC endpoint serves another chain than SIGNER_CHAIN_ID', async () => {
    const platform = await platformWith({ SIGNER_CHAIN_ID: '8453' });
    const res = await mint(platform);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SIGNER_MISCONFIGURED',
      detail: 'The signer is stopped: RPC endpoint serves chain 84532, but the signer is configured for 8453',
    });
  });
});

describe('signer processes sharing Redis', () => {
  it('count one request limit per address across two processes', async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379' };
    const [first, second] = [await platformWith(env), await platformWith(env)];
    const address = Wallet.createRandom().address;
    for (let i = 0; i < 10; i += 1) expect((await mint(i % 2 ? first : second, address)).status).toBe(200);
    const limited = await mint(first, address);
    expect([limited.status, limited.body.code]).toEqual([429, 'SIGNER_RATE_LIMITED']);
  });
});

describe('signer keys', () => {
  async function keystoreFile(dir: string, key: string, password: string): Promise<string> {
    const file = path.join(dir, 'signer-84532.json');
    const json = await encryptKeystoreJson({ address: new Wallet(key).address, privateKey: key }, password, {
      scrypt: { N: 1 << 10 },
    });
    await fs.writeFile(file, json);
    return file;
  }

  it('signs with an encrypted keystore whose password is a secret; the contract accepts it', async () => {
    const dir = await secretsDir({ 'signer-keystore-password-84532': 'correct horse battery staple' });
    const file = await keystoreFile(dir, SIGNER_KEYS[84532], 'correct horse battery staple');
    const platform = await platformWith({ SIGNER_SECRETS_DIR: dir, SIGNER_KEYSTORE_FILE: file });
    const user = chain.wallets[1];
    const res = await mint(platform, user.address);
    expect(res.status).toBe(200);
    await send(deployment.seed, user, 'mintWithSignature', res.body.signature);
  });

  it('reports a keystore without its password secret as 503 SIGNER_KEY_UNAVAILABLE', async () => {
    const dir = await secretsDir({});
    const file = await keystoreFile(dir, SIGNER_KEYS[84532], 'a password nobody stored');
    const platform = await platformWith({ SIGNER_SECRETS_DIR: dir, SIGNER_KEYSTORE_FILE: file });
    const res = await mint(platform);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SIGNER_KEY_UNAVAILABLE',
      detail:
        'The signer is stopped: No signing key for chain 84532: secret signer-keystore-password-84532 is not set',
    });
  });

  it('rotates without a restart: new key in the secret, then setSigner on both contracts', async () => {
    const own = await deployContracts(chain, signerAddress(84532));
    const dir = await secretsDir({ 'signer-private-key-84532': SIGNER_KEYS[84532] });
    const platform = await platformWith({ SIGNER_SECRETS_DIR: dir }, own);
    expect((await mint(platform)).status).toBe(200);

    const next = new Wallet(testKey('rotated signer 84532'));
    await fs.writeFile(path.join(dir, 'signer-private-key-84532.tmp'), next.privateKey);
    await fs.rename(
      path.join(dir, 'signer-private-key-84532.tmp'),
      path.join(dir, 'signer-private-key-84532'),
    );
    // The provider re-reads the secret within a minute; until the contracts follow, the signer holds back.
    platform.clock.advance(60_000);
    const pending = await mint(platform);
    expect([pending.status, pending.body.code, pending.body.actual]).toEqual([
      503,
      'SIGNER_ADDRESS_MISMATCH',
      next.address,
    ]);

    await send(own.forge, chain.wallets[0], 'setSigner', next.address);
    await send(own.seed, chain.wallets[0], 'setSigner', next.address);
    platform.clock.advance(5_000);
    const user = chain.wallets[1];
    const res = await mint(platform, user.address);
    expect(res.status).toBe(200);
    await send(own.seed, user, 'mintWithSignature', res.body.signature);
    expect((await platform.storedSignatures()).at(-1)?.signer).toBe(next.address);
  });
});
