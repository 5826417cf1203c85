import type { AuditRecorder } from '../../../models/AuditEvent';
import type { Provider } from 'ethers';
import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import {
  connectForgeContract,
  connectPunkSeedContract,
  type ForgeContractReader,
  type PunkSeedContractReader,
} from '../chain/chainContracts';
import { ForgeIdPredictor } from '../chain/forgeIdPredictor';
import { ForgeSignatureIssuer } from './forgeSignatures';
import { MintSignatureIssuer } from './mintSignatures';
import { NonceReader } from '../chain/nonceReader';
import type { ConsumedNonceLookup } from '../usage/reuseAlerts';
import { assertChainId, verifySignerSetup, type NetworkSource } from '../keys/signerCheck';
import type { SignerKeyProvider } from '../keys/signerKeys';
import { SignatureUsageTracker, type ConsumedSignature } from '../usage/usageTracker';

/** Configuration of one chain's signing core (one per chain id the platform serves). */
export interface SignerCoreOptions {
  /** 8453 or 84532. */
  chainId: number;
  /** JSON-RPC provider of that chain (ethers JsonRpcProvider with a static network). */
  provider: Provider;
  /**
   * Where verify() reads the endpoint's chain id; default `provider`. Pass `rpcChainId(provider)` when the provider
   * has a static network, so the endpoint itself is asked.
   */
  network?: NetworkSource;
  forgeAddress: string;
  seedAddress: string;
  keys: SignerKeyProvider;
  /** forgeId timestamp buffer, 10..30 s; default 20. */
  bufferSeconds?: number;
  /** Nonce cache TTL, under 5000 ms; default 4000. */
  nonceTtlMs?: number;
  /** Nonces known consumed (signature store or InMemoryConsumedNonces); enables reuse alerts. */
  consumedNonces?: ConsumedNonceLookup;
  clock?: Clock;
  logger?: Logger;
  /** The platform's audit log (reuse alerts). */
  audit?: AuditRecorder;
}

/** Options of SignerCore.createUsageTracker. */
export interface UsageTrackerSetup {
  fromBlock: number;
  confirmations?: number;
  /** Persist the use (mark the stored signature used); the core has already dropped the user's cached nonce. */
  onConsumed: (event: ConsumedSignature) => Promise<void>;
  /** After each scanned block range, with the next block to scan. */
  onProgress?: (nextBlock: number) => Promise<void>;
}

/** The wired signing core of one chain: what the HTTP routes and the start-up sequence call. */
export interface SignerCore {
  readonly chainId: number;
  readonly forge: ForgeContractReader;
  readonly seed: PunkSeedContractReader;
  readonly forgeNonces: NonceReader;
  readonly seedNonces: NonceReader;
  readonly forgeIssuer: ForgeSignatureIssuer;
  readonly mintIssuer: MintSignatureIssuer;
  /**
   * Start-up check: the endpoint serves `chainId` and both contracts expect this chain's key. Throws
   * SignerConfigError or SignerMismatchError (do not start); returns the signer address.
   */
  verify(): Promise<string>;
  /** A tracker of both contracts' SignatureConsumed events that also invalidates the user's cached nonce. */
  createUsageTracker(setup: UsageTrackerSetup): SignatureUsageTracker;
}

/** Wires readers, caches, predictor and issuers for one chain. */
export function createSignerCore(options: SignerCoreOptions): SignerCore {
  const { chainId, provider, keys, clock, logger, consumedNonces } = options;
  const forge = connectForgeContract(options.forgeAddress, provider);
  const seed = connectPunkSeedContract(options.seedAddress, provider);
  const forgeNonces = new NonceReader({ source: forge, ttlMs: options.nonceTtlMs, clock });
  const seedNonces = new NonceReader({ source: seed, ttlMs: options.nonceTtlMs, clock });
  const predictor = new ForgeIdPredictor({ blocks: provider, bufferSeconds: options.bufferSeconds, clock });
  const shared = { chainId, keys, consumedNonces, clock, logger, audit: options.audit };
  return {
    chainId,
    forge,
    seed,
    forgeNonces,
    seedNonces,
    forgeIssuer: new ForgeSignatureIssuer({ ...shared, nonces: forgeNonces, forge, predictor }),
    mintIssuer: new MintSignatureIssuer({ ...shared, nonces: seedNonces, seed }),
    verify: async () => {
      await assertChainId(options.network ?? provider, chainId);
      const targets = [
        { name: 'TheForge', chainId, contract: forge },
        { name: 'PunkSeed', chainId, contract: seed },
      ];
      return (await verifySignerSetup(targets, keys)).get(chainId) as string;
    },
    createUsageTracker: (setup) =>
      new SignatureUsageTracker({
        chainId,
        logs: provider,
        contracts: [forge.address, seed.address],
        fromBlock: setup.fromBlock,
        confirmations: setup.confirmations,
        onProgress: setup.onProgress,
        logger,
        onConsumed: async (event) => {
          const nonces =
            event.contract.toLowerCase() === forge.address.toLowerCase() ? forgeNonces : seedNonces;
          nonces.invalidate(event.user);
          await setup.onConsumed(event);
        },
      }),
  };
}
