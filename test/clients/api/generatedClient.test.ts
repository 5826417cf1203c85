import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { createForgeApiClient, type ForgeApiClient } from '../../../clients/api';
import { productParts } from '../../../productParts';
import { REPO_ROOT } from '../../helpers/childProcess';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

const SERVICE_TOKEN = 'generated-client-service-token-0123456789';
/** The whole product starts here (twice for the staleness check); that takes longer than a test. */
const SETUP_TIMEOUT_MS = 120_000;

const CLIENT_TYPES_FILE = path.join(REPO_ROOT, 'clients/api/generated/schema.d.ts');
const DOCUMENT_FILE = path.join(REPO_ROOT, 'clients/api/generated/openapi.json');

describe('the committed client types', () => {
  // The generator runs as `npm run client:generate` does, in its own process (openapi-typescript is ESM inside).
  it(
    'are, with the document beside them, what `npm run client:generate` writes from the current routes',
    async () => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-client-types-'));
      const fresh = path.join(dir, 'schema.d.ts');
      try {
        const script = path.join(REPO_ROOT, 'clients/api/generateClientTypes.ts');
        await promisify(execFile)(process.execPath, ['--import', 'tsx', script, fresh], { cwd: REPO_ROOT });
        const [committed, current, committedDocument, currentDocument] = await Promise.all([
          fs.readFile(CLIENT_TYPES_FILE, 'utf8'),
          fs.readFile(fresh, 'utf8'),
          fs.readFile(DOCUMENT_FILE, 'utf8'),
          fs.readFile(path.join(dir, 'openapi.json'), 'utf8'),
        ]);
        // A failure here means the contract changed: run `npm run client:generate` and commit the result.
        expect(committed === current).toBe(true);
        // The document the suite validates every answer against (test/setup/responseContract.ts) is current too.
        expect(committedDocument === currentDocument).toBe(true);
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },
    SETUP_TIMEOUT_MS,
  );
});

/**
 * A route of every area called through the generated client (openapi-fetch over the generated types) as each kind
 * of caller: the paths, parameters and bodies below are checked by the compiler against the published contract.
 */
describe('the generated client against a running platform', () => {
  const admin = Wallet.createRandom();
  let server: TestPlatform;
  let anonymous: ForgeApiClient;
  let guest: ForgeApiClient;
  let player: ForgeApiClient;
  let operator: ForgeApiClient;
  let service: ForgeApiClient;

  beforeAll(async () => {
    server = await startTestPlatform(
      {
        BRAIN_SERVICE_TOKEN: SERVICE_TOKEN,
        ADMIN_ADDRESSES: admin.address,
        SIWE_ENABLED: '1',
        ROLES: 'api,game',
      },
      productParts,
    );
    const client = (token?: string) => createForgeApiClient({ baseUrl: server.url, token });
    anonymous = client();
    service = client(SERVICE_TOKEN);
    const signedIn = await anonymous.POST('/auth/guest', { body: { display_name: 'Client Tester' } });
    guest = client(signedIn.data?.token);
    player = client((await signInWithWallet(server.url, Wallet.createRandom())).body.token);
    operator = client((await signInWithWallet(server.url, admin)).body.token);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => server.stop());

  it('health and the contract itself', async () => {
    const health = await anonymous.GET('/healthz');
    expect(health.response.status).toBe(200);
    expect(health.data?.status).toBe('ok');
  });

  it('identity: a guest and an account player read themselves', async () => {
    const me = await guest.GET('/auth/me');
    expect(me.response.status).toBe(200);
    expect(me.data).toMatchObject({ display_name: 'Client Tester' });
    expect((await player.GET('/auth/me')).response.status).toBe(200);
  });

  it('an error arrives typed as a problem', async () => {
    const { error, response } = await anonymous.GET('/auth/me');
    expect(response.status).toBe(401);
    expect(error?.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['brain', () => service.GET('/brain/stats')],
    ['economy', () => player.GET('/economy/wallet')],
    ['marketplace', () => player.GET('/marketplace/search', { params: { query: { limit: 5 } } })],
    ['mud', () => service.GET('/mud/spawns/status')],
    ['social', () => service.GET('/social/brain/stats')],
    ['quests', () => player.GET('/quests/brain/status')],
    ['notifications', () => player.GET('/notifications')],
    [
      'npc',
      () => player.GET('/npc/brain/{npc}/relationship', { params: { path: { npc: 'village:elder' } } }),
    ],
    ['admin', () => operator.GET('/admin/brain/status')],
    ['mcp', () => anonymous.GET('/.well-known/oauth-protected-resource/mcp')],
  ])('%s answers through the generated client', async (_area, call) => {
    const { data, error, response } = await call();
    expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
    expect(data).toBeDefined();
  });

  it('influencer: an admin grants the creator role, and the creator reads insights', async () => {
    const me = await player.GET('/auth/me');
    const id = me.data?.id ?? '';
    const granted = await operator.PUT('/auth/users/{id}/roles', {
      params: { path: { id } },
      body: { roles: ['player', 'creator'] },
    });
    expect(granted.data?.roles).toContain('creator');
    const insights = await player.GET('/influencer/brain/insights');
    expect({ status: insights.response.status, error: insights.error }).toEqual({
      status: 200,
      error: undefined,
    });
  });

  it('companions: a path parameter, and a typed 404 for a companion the player does not have', async () => {
    const params = { path: { companion: 'ember' } };
    const { error, response } = await player.GET('/companions/brain/{companion}', { params });
    expect(response.status).toBe(404);
    expect(error?.code).toBe('COMPANION_NOT_FOUND');
  });

  it('signer: a typed body, refused typed while no signer key is configured', async () => {
    const body = { forger: admin.address, path: 0, zenCommitted: '1' };
    const { error, response } = await player.POST('/api/forge/start', { body });
    expect(response.status).toBe(501);
    expect(error?.code).toBe('SIGNER_DISABLED');
  });
});
