import { Wallet } from 'ethers';
import request from 'supertest';
import { secretsOf } from '../../../platform/redaction';
import { productParts } from '../../../productParts';
import { InProcessMemoryService } from '../../helpers/inProcessMemory';
import { deployContracts, startTestChain, type TestChain } from '../../helpers/evm';
import { freePort } from '../../helpers/nginx';
import { OIDC_CLIENT_ID, TestOpenIdProvider } from '../../helpers/oidcProvider';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signerEnv, writeSecretsDir } from '../../helpers/signerPlatform';
import { SIGNER_KEYS, signerAddress } from '../../helpers/signerFixtures';
import { signInWithWallet } from '../../helpers/siwe';
import { SmtpInbox } from '../../helpers/smtpInbox';
import { fuzzCases, type FuzzCase, type OpenApiDocument } from './fuzz/fuzzCases';

/** Setup starts the whole product (and a chain); it takes longer than a test on a loaded machine. */
const SETUP_TIMEOUT_MS = 180_000;

/**
 * Upper bound on the requests one run sends (the cases grow with the API; raise it deliberately). 7000: the whole
 * second half (memory, decisions, graph, security, social, quests, influencer, admin, NPC, companion, notification
 * and marketplace routes) makes about 6,000 cases.
 */
const MAX_REQUESTS = 7000;
const SERVICE_TOKEN = 'fuzz-service-token-0123456789abcdef';
/** Requests in flight at once. */
const CONCURRENCY = 4;
const STACK_LINE = /\n\s+at \S+ \(|\bat (?:async )?[\w.<>]+ \(\/|node:internal/;

/**
 * Every operation of /openapi.json, fuzzed with and without credentials (none, a player, the service token, an
 * admin) on the whole product with every feature configured: no answer is a 5xx, every error is problem JSON, and
 * no body carries a stack trace or a configured secret.
 */
describe('OpenAPI-driven fuzzing', () => {
  const inbox = new SmtpInbox();
  const idp = new TestOpenIdProvider();
  const admin = Wallet.createRandom();
  let chain: TestChain;
  let server: TestPlatform;
  let secrets: string[];

  beforeAll(async () => {
    chain = await startTestChain();
    const deployment = await deployContracts(chain, signerAddress(84532));
    const secretsDir = await writeSecretsDir({ 'signer-private-key-84532': SIGNER_KEYS[84532] });
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/auth/oidc/callback`;
    server = await startTestPlatform(
      {
        ...signerEnv(chain, deployment, secretsDir),
        PORT: String(port),
        ROLES: 'api,game,worker',
        BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
        ADMIN_ADDRESSES: admin.address,
        ETH_RPC_URL: chain.url,
        ETH_CHAIN_ID: '84532',
        SMTP_URL: await inbox.start(),
        OIDC_ISSUER_URL: await idp.start(redirectUri),
        OIDC_CLIENT_ID,
        OIDC_REDIRECT_URI: redirectUri,
        BRAIN_EMBED_RETRY_BASE_MS: '0',
      },
      // The in-process memory service builds the NPC and companion brains, so their routes are fuzzed too.
      (context) => productParts(context, { memory: new InProcessMemoryService() }),
    );
    secrets = [...secretsOf(server.config), SERVICE_TOKEN];
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await server.stop();
    await idp.stop();
    await inbox.stop();
    await chain.close();
  });

  /** Session tokens of a fresh player and of the admin (re-made after a case that may have revoked them). */
  async function credentials(): Promise<(string | undefined)[]> {
    const player = (await signInWithWallet(server.url, Wallet.createRandom())).body.token as string;
    const adminToken = (await signInWithWallet(server.url, admin)).body.token as string;
    return [undefined, player, SERVICE_TOKEN, adminToken];
  }

  function send(fuzz: FuzzCase, token: string | undefined): request.Test {
    const call = request(server.url)[fuzz.method as 'get'](fuzz.path).timeout(60_000);
    if (token) call.set('Authorization', `Bearer ${token}`);
    if (fuzz.body === undefined) return call;
    return call.set('Content-Type', fuzz.contentType ?? 'application/json').send(fuzz.body);
  }

  /**
   * Errors are problem JSON, except on the MCP endpoint, which speaks JSON-RPC: there an error is a JSON-RPC error
   * object whose `data` is the problem.
   */
  function isErrorShape(res: request.Response, path: string): boolean {
    const type = res.headers['content-type'] ?? '';
    if (/^application\/problem\+json/.test(type)) return true;
    const body = res.body as { jsonrpc?: string; error?: { data?: { type?: string; status?: number } } };
    return (
      path === '/mcp' &&
      /^application\/json/.test(type) &&
      body.jsonrpc === '2.0' &&
      typeof body.error?.data?.type === 'string' &&
      body.error.data.status === res.status
    );
  }

  /** What is wrong with an answer, or nothing. */
  function problemsOf(res: request.Response, path: string): string[] {
    const found: string[] = [];
    if (res.status >= 500) found.push(`status ${res.status}`);
    if (res.status >= 400 && !isErrorShape(res, path)) found.push(`error as ${res.headers['content-type']}`);
    if (STACK_LINE.test(res.text ?? '')) found.push('stack trace in body');
    for (const secret of secrets) if (res.text?.includes(secret)) found.push('configured secret in body');
    return found;
  }

  it('answers every operation without a 5xx, with problem JSON, leaking nothing', async () => {
    const doc = (await request(server.url).get('/openapi.json').expect(200)).body as OpenApiDocument;
    const cases = fuzzCases(doc, 3);
    expect(cases.length).toBeGreaterThan(500);
    expect(cases.length).toBeLessThanOrEqual(MAX_REQUESTS);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let tokens = await credentials();
    const check = async (fuzz: FuzzCase) => {
      const res = await send(fuzz, tokens[fuzz.credential]).catch((error: Error) => error);
      if (res instanceof Error) {
        failures.push(`${fuzz.label} [credential ${fuzz.credential}]: ${res.message}`);
        return;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      for (const problem of problemsOf(res, fuzz.path))
        failures.push(`${fuzz.label} [credential ${fuzz.credential}]: ${problem} ${res.text.slice(0, 200)}`);
    };
    // Cases that may revoke the sessions in use run alone, and new sessions are made after them.
    const revoking = (fuzz: FuzzCase) => fuzz.path.startsWith('/auth/logout');
    for (let start = 0; start < cases.length;) {
      if (revoking(cases[start])) {
        await check(cases[start++]);
        tokens = await credentials();
        continue;
      }
      let end = start;
      while (end < cases.length && end - start < CONCURRENCY && !revoking(cases[end])) end++;
      await Promise.all(cases.slice(start, end).map(check));
      start = end;
    }
    expect(failures).toEqual([]);
    // The run reached past the guards and the validators: some answers succeeded.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(20);
  }, 900_000);
});
