import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BaseWallet } from 'ethers';
import request from 'supertest';
import { issuedSignatureModel, type IssuedSignatureRecord } from '../../models/IssuedSignature';
import { ManualClock } from '../../platform/clock';
import { combineParts } from '../../productParts';
import { createAuthService } from '../../services/auth';
import { ForgeFunds } from '../../services/economy/forgeFunds';
import { silentLogger } from '../../platform/logger';
import { createSignerArea, type SignerArea } from '../../services/signer';
import { deployContracts, startTestChain, type Deployment, type TestChain } from './evm';
import { startTestPlatform, type TestPlatform } from './platform';
import { SIGNER_KEYS, signerAddress } from './signerFixtures';
import { signInWithWallet } from './siwe';

/** The service token the signer test platforms accept. */
export const SIGNER_SERVICE_TOKEN = 'signer-service-token-0123456789';

/** A platform with identity and the signer, wired to a test chain, as productParts wires them to Base. */
export interface SignerPlatform {
  server: TestPlatform;
  area: SignerArea;
  clock: ManualClock;
  ledger: ForgeFunds;
  /** Every stored signature, oldest first. */
  storedSignatures(): Promise<IssuedSignatureRecord[]>;
  /** Signs `wallet` in with SIWE and returns its session token. */
  signIn(wallet: BaseWallet): Promise<string>;
  stop(): Promise<void>;
}

/** Writes the secret files a signer reads from SIGNER_SECRETS_DIR; returns the directory. */
export async function writeSecretsDir(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-signer-secrets-'));
  for (const [name, value] of Object.entries(files)) await fs.writeFile(path.join(dir, name), `${value}\n`);
  return dir;
}

/** Environment of a signer on `chain` for `deployment`, keys from `secretsDir`. */
export function signerEnv(
  chain: TestChain,
  deployment: Deployment,
  secretsDir: string,
): Record<string, string> {
  return {
    SIWE_ENABLED: '1',
    BRAIN_SERVICE_TOKEN: SIGNER_SERVICE_TOKEN,
    SIGNER_CHAIN_ID: String(chain.chainId),
    SIGNER_RPC_URL: chain.url,
    SIGNER_FORGE_ADDRESS: deployment.forgeAddress,
    SIGNER_SEED_ADDRESS: deployment.seedAddress,
    SIGNER_SECRETS_DIR: secretsDir,
  };
}

/**
 * Starts a platform (identity + signer) on `chain`. Unless `env` says otherwise, the signer serves the chain's
 * deployment with the test key of chain 84532 from a secrets directory, the clock is a ManualClock at now, and the
 * process has the api role only: tests run the usage tracking through `area.trackUsage()`, which a worker's job
 * would otherwise run concurrently (pass `ROLES: 'api,worker'` to test the job).
 */
export async function startSignerPlatform(
  chain: TestChain,
  deployment: Deployment,
  env: Record<string, string> = {},
): Promise<SignerPlatform> {
  const secretsDir = await writeSecretsDir({ 'signer-private-key-84532': SIGNER_KEYS[84532] });
  const clock = new ManualClock(Date.now());
  let area: SignerArea | undefined;
  const server = await startTestPlatform(
    { ...signerEnv(chain, deployment, secretsDir), ROLES: 'api', ...env },
    async (context) => {
      const auth = createAuthService(context);
      area = await createSignerArea(context, auth);
      return {
        ...combineParts([{ services: [auth.register], close: () => auth.close() }, area]),
        adminGuard: auth.adminGuard,
      };
    },
    clock,
  );
  const connection = server.platform.stores.mongo;
  const ledger = await ForgeFunds.open(connection, clock, silentLogger);
  return {
    server,
    area: area as SignerArea,
    clock,
    ledger,
    storedSignatures: () =>
      issuedSignatureModel(connection).find().sort({ _id: 1 }).lean<IssuedSignatureRecord[]>(),
    signIn: async (wallet) => {
      const res = await signInWithWallet(server.url, wallet);
      if (res.status !== 202) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    stop: async () => {
      await server.stop();
      await fs.rm(secretsDir, { recursive: true, force: true });
    },
  };
}

/** A test chain with both contracts deployed for the 84532 test signer key. */
export async function startSignerChain(accounts = 6): Promise<{ chain: TestChain; deployment: Deployment }> {
  const chain = await startTestChain({ chainId: 84532, accounts });
  const deployment = await deployContracts(chain, signerAddress(84532));
  return { chain, deployment };
}

/** What `useSignerPlatform` gives a test file; its fields are set once `beforeAll` has run. */
export interface SignerFixture {
  chain: TestChain;
  deployment: Deployment;
  signer: SignerPlatform;
  /** POSTs `body` as JSON to the signer platform, with `token` as bearer, or anonymously without one. */
  post(path: string, body: unknown, token?: string): request.Test;
}

/**
 * Registers the `beforeAll`/`afterAll` of a test file that drives one signer platform on its own test chain
 * (`accounts` funded wallets), and returns the fixture those hooks fill in.
 */
export function useSignerPlatform(accounts = 6): SignerFixture {
  const fixture = {
    post: (path: string, body: unknown, token?: string) => {
      const req = request(fixture.signer.server.url).post(path);
      if (token) void req.set('Authorization', `Bearer ${token}`);
      return req.send(body as object);
    },
  } as SignerFixture;
  beforeAll(async () => {
    ({ chain: fixture.chain, deployment: fixture.deployment } = await startSignerChain(accounts));
    fixture.signer = await startSignerPlatform(fixture.chain, fixture.deployment);
  });
  afterAll(async () => {
    await fixture.signer?.stop();
    await fixture.chain?.close();
  });
  return fixture;
}
