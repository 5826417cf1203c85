import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import type { AuthService } from '../auth';
import type { AuditRecorder } from '../../models/AuditEvent';
import { ForgeFunds } from '../economy';
import { createKeyProvider, directorySecretSource } from './keys/keySources';
import { RedisForgeCooldownStore, RedisRequestWindowStore } from './policy/redisPolicyStores';
import { SignatureRequestPolicy } from './policy/requestPolicy';
import { createReuseReports } from './usage/reuseReports';
import { registerSignerRoutes } from './router';
import { signerSettings } from './settings';
import { SignatureAccess } from './policy/signatureAccess';
import { createSignatureCommands } from './issuing/signatureCommands';
import { MongoSignatureStore } from './issuing/signatureStore';
import { SignerAvailability, type SignerAvailabilitySnapshot } from './keys/signerAvailability';
import { rpcChainId } from './keys/signerCheck';
import { createSignerCore } from './issuing/signerCore';
import type { SecretSource } from './keys/signerKeys';
import { SignatureUsageTracking } from './usage/usageTracking';
import { createSignatureService, type SignatureService } from './signatureService';

export type { SignatureRequestContext, SignatureService } from './signatureService';
export {
  ForgeClaimRequestSchema,
  ForgeIdSchema,
  ForgePathSchema,
  ForgeStartRequestSchema,
  ForgeStartResponseSchema,
  PunkSeedMintRequestSchema,
  SignatureResponseSchema,
  SignerAddressSchema,
  ZenAmountSchema,
} from './schemas';

/** Time one JSON-RPC call may take before it fails (503 SIGNER_CHAIN_UNAVAILABLE). */
const RPC_TIMEOUT_MS = 10_000;

/** Options of createSignerArea. */
export interface SignerAreaOptions {
  /** A secret manager client (Vault, a cloud secret manager) to use instead of SIGNER_SECRETS_DIR. */
  secrets?: SecretSource;
  /** The platform's audit log: signature requests and reuse alerts are recorded there. */
  audit?: AuditRecorder;
}

/** What the signer reports about itself (status tools, health probes); no secrets. */
export type SignerStatus =
  | { enabled: false }
  | ({
      enabled: true;
      chainId: number;
      forgeAddress: string;
      seedAddress: string;
    } & SignerAvailabilitySnapshot);

/** The signer's product parts, plus one run of the usage tracking (what its job runs) when the signer is on. */
export interface SignerArea extends ProductParts {
  trackUsage?: () => Promise<number>;
  /** The signer's configuration state and the outcome of its latest signer check. */
  status(): SignerStatus;
  /**
   * The signature commands for other areas (the MCP gateway), without Express: they take the principal the auth
   * area authenticated and run the routes' checks (501, 401/403, 503, …). The routes call the same service.
   */
  signatures: SignatureService;
}

/**
 * The JSON-RPC provider of the signer's chain: a fixed network (no chain-id call before each request), one call per
 * HTTP request (no batching delay), no response cache (a nonce read right after a transaction must be fresh).
 */
function rpcProvider(url: string, chainId: number): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = RPC_TIMEOUT_MS;
  const network = Network.from(chainId);
  return new JsonRpcProvider(request, network, {
    staticNetwork: network,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
}

/**
 * The contract-signature area (SPEC 2.5-2.8, 4.10, 5): routes, the usage-tracking job, and the start-up signer
 * check. With SIGNER_CHAIN_ID unset, only the routes exist and answer 501 SIGNER_DISABLED. A failed start-up check
 * (key not the contracts' signer, wrong chain, no key) stops the signer, not the platform: it logs the reason and
 * the routes answer 503 with it until a later check passes.
 */
export async function createSignerArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard' | 'accounts'>,
  options: SignerAreaOptions = {},
): Promise<SignerArea> {
  const { config, stores, clock } = context;
  const logger = context.logger.child({ component: 'signer' });
  const settings = signerSettings(config, options.secrets !== undefined);
  if (!settings.enabled) {
    const signatures = createSignatureService(undefined);
    return {
      services: [(routes) => registerSignerRoutes(routes, auth.guard, signatures, undefined)],
      status: () => ({ enabled: false }),
      signatures,
    };
  }
  const { chainId } = settings;
  const provider = rpcProvider(settings.rpcUrl, chainId);
  const secrets = options.secrets ?? directorySecretSource(settings.keys.secretsDir as string);
  const keys = createKeyProvider({ chainId, keys: settings.keys, secrets, clock, logger });
  const [store, balances] = await Promise.all([
    MongoSignatureStore.open(stores.mongo),
    ForgeFunds.open(stores.mongo, clock, logger),
  ]);
  const core = createSignerCore({
    chainId,
    provider,
    network: rpcChainId(provider),
    forgeAddress: settings.forgeAddress,
    seedAddress: settings.seedAddress,
    keys,
    bufferSeconds: settings.bufferSeconds,
    nonceTtlMs: settings.nonceTtlMs,
    consumedNonces: store,
    clock,
    logger,
    audit: options.audit,
  });
  const tracking = new SignatureUsageTracking({
    core,
    store,
    connection: stores.mongo,
    blocks: provider,
    startBlock: settings.usageStartBlock,
    logger,
  });
  const availability = new SignerAvailability({
    // The cursor exists before the first signature, so the tracker never starts after a signature's use.
    check: async () => {
      const signer = await core.verify();
      await tracking.initialize();
      return signer;
    },
    currentSigner: async () => (await keys.getSigner(chainId)).address,
    clock,
    logger,
  });
  const redis = stores.redis;
  const policy = new SignatureRequestPolicy({
    balances,
    requestWindows: redis ? new RedisRequestWindowStore(redis, `signer:${chainId}:requests:`) : undefined,
    cooldowns: redis ? new RedisForgeCooldownStore(redis, `signer:${chainId}:cooldown:`) : undefined,
    forgeCooldownMs: settings.forgeCooldownMs,
    requestLimit: settings.requestLimit,
    clock,
  });
  const signatures = createSignatureService({
    access: new SignatureAccess(auth.accounts),
    availability,
    commands: createSignatureCommands({ core, policy, store, clock, logger, audit: options.audit }),
  });
  const reports = createReuseReports({ core, store, policy, logger, audit: options.audit });
  await availability.start();
  return {
    services: [(routes) => registerSignerRoutes(routes, auth.guard, signatures, reports)],
    jobs: [(agenda) => tracking.registerJob(agenda)],
    trackUsage: () => tracking.track(),
    status: () => ({
      enabled: true,
      chainId,
      forgeAddress: settings.forgeAddress,
      seedAddress: settings.seedAddress,
      ...availability.snapshot(),
    }),
    signatures,
    close: async () => provider.destroy(),
  };
}
