import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import request from 'supertest';
import { loadConfig } from '../../../platform/config';
import { createLogger } from '../../../platform/logger';
import { Platform } from '../../../platform/platform';
import { productParts } from '../../../productParts';
import { LogCapture } from '../../helpers/logCapture';
import { startTestPlatform, TEST_ENV, type TestPlatform } from '../../helpers/platform';
import { buildSiweMessage } from '../../helpers/siwe';
import { writeSecretsDir } from '../../helpers/signerPlatform';
import { SIGNER_KEYS } from '../../helpers/signerFixtures';

/** Setup starts the whole product (and a chain); it takes longer than a test on a loaded machine. */
const SETUP_TIMEOUT_MS = 180_000;

/** The marker every store and RPC URL carries, in its path, its query or its password. */
const MARKER = 'mk9secret7api7key';
const SERVICE_TOKEN = 'secret-redaction-service-token-01';

/** A provider that fails every call: 500 with a body that itself names the URL it was called on. */
async function startFailingProvider(): Promise<{ base: string; hostPort: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`upstream failure at ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const hostPort = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `http://${hostPort}`,
    hostPort,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('secrets in error bodies and logs', () => {
  let provider: Awaited<ReturnType<typeof startFailingProvider>>;
  let server: TestPlatform;
  const bodies: string[] = [];
  const record = (res: request.Response) => {
    bodies.push(res.text);
    return res;
  };

  beforeAll(async () => {
    provider = await startFailingProvider();
    const secretsDir = await writeSecretsDir({ 'signer-private-key-84532': SIGNER_KEYS[84532] });
    server = await startTestPlatform(
      {
        SIWE_ENABLED: '1',
        BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
        ETH_RPC_URL: `${provider.base}/v2/${MARKER}`,
        ETH_CHAIN_ID: '84532',
        SIGNER_CHAIN_ID: '84532',
        SIGNER_RPC_URL: `${provider.base}/rpc/${MARKER}?apikey=${MARKER}`,
        SIGNER_FORGE_ADDRESS: Wallet.createRandom().address,
        SIGNER_SEED_ADDRESS: Wallet.createRandom().address,
        SIGNER_SECRETS_DIR: secretsDir,
        OIDC_ISSUER_URL: `${provider.base}/realms/${MARKER}`,
        OIDC_CLIENT_ID: 'forge',
        BRAIN_EMBED_PRIMARY_URL: `${provider.base}/${MARKER}/v1/embeddings`,
        BRAIN_EMBED_RETRY_ATTEMPTS: '1',
        BRAIN_EMBED_RETRY_BASE_MS: '0',
        REDIS_URL: `redis://default:${MARKER}@127.0.0.1:6379`,
      },
      productParts,
    );
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await server.stop();
    await provider.close();
  });

  it('wallet sign-in: 503 ETH_RPC_UNAVAILABLE says only that the chain is unavailable', async () => {
    const owner = Wallet.createRandom();
    const { nonce } = (await request(server.url).post('/auth/wallet/nonce').expect(201)).body;
    const address = Wallet.createRandom().address;
    const message = buildSiweMessage(owner, nonce, { address, chainId: 84532 });
    const res = record(
      await request(server.url)
        .post('/auth/wallet/verify')
        .send({ address, nonce, message, signature: await owner.signMessage(message) }),
    );
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'ETH_RPC_UNAVAILABLE',
      detail: 'The Ethereum RPC is unavailable; retry later',
    });
  });

  it('signer: 503 SIGNER_CHAIN_UNAVAILABLE without the RPC URL', async () => {
    const res = record(
      await request(server.url)
        .post('/api/punk-seed/mint')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({ address: Wallet.createRandom().address }),
    );
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'SIGNER_CHAIN_UNAVAILABLE',
      detail:
        "The signer is stopped: The chain's JSON-RPC endpoint (eth_chainId) is unavailable; retry later",
    });
  });

  it('single sign-on: 503 OIDC_UNAVAILABLE without the issuer URL', async () => {
    const res = record(await request(server.url).post('/auth/oidc/start'));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'OIDC_UNAVAILABLE',
      detail: 'The identity provider is unavailable; retry later',
    });
  });

  it('embedding provider: the fallback is logged without the provider URL', async () => {
    const res = record(
      await request(server.url)
        .post('/brain/ingest')
        .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
        .send({
          documents: [{ source: 'docs/redaction.md', index: 'docs', text: '# Redaction\n\nNo keys.' }],
        }),
    );
    expect(res.status).toBe(200);
    const fallback = server.logs.withMessage('embedding provider failed, falling back');
    expect(fallback.length).toBeGreaterThan(0);
    expect(JSON.stringify(fallback)).toContain('upstream failure at /[redacted]/v1/embeddings');
  }, 120_000);

  it('readiness: a store that went away is named, without its URL, host or port', async () => {
    server.platform.stores.redis?.disconnect();
    const res = record(await request(server.url).get('/readyz'));
    // Redis has in-process fallbacks: the process stays in service, degraded, naming the store.
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'degraded', degraded: ['redis'] });
    expect(res.body.checks[0]).toMatchObject({ name: 'redis', status: 'down', error: 'unreachable' });
  });

  it('leaves the marker in no body and no log line, and host and port in no body', () => {
    expect(bodies).toHaveLength(5);
    for (const body of bodies) {
      expect(body).not.toContain(MARKER);
      expect(body).not.toContain(provider.hostPort);
      expect(body).not.toContain('6379');
      expect(body).not.toMatch(/ECONNREFUSED|requestUrl|\bat [\w.<>]+ \(/);
    }
    const logs = server.logs.raw.join('\n');
    // Deliberate 503s are logged at warn with their cause, never at error (degraded readiness is a 200, not logged).
    const failed = server.logs.withMessage('request failed');
    expect(failed.map((line) => line.level)).toEqual(['warn', 'warn', 'warn']);
    expect(logs).not.toContain(MARKER);
  });

  it('start-up failure: a store URL with credentials is logged redacted', async () => {
    const capture = new LogCapture();
    const config = loadConfig({
      ...TEST_ENV,
      DATA_DIR: '/nonexistent-forge-redaction',
      QDRANT_URL: `http://admin:${MARKER}@127.0.0.1:9/${MARKER}?api-key=${MARKER}`,
    });
    const logger = createLogger({ level: 'info', destination: capture });
    const failure = await Platform.start({ config, logger }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    logger.fatal({ err: failure }, 'start-up failed');
    expect(capture.withMessage('start-up failed')).toHaveLength(1);
    expect(capture.raw.join('\n')).not.toContain(MARKER);
  });
});
