import { ManualClock } from '../../platform/clock';
import type { ConsumedNonceLookup } from '../../services/signer/usage/reuseAlerts';
import { createSignerCore } from '../../services/signer/issuing/signerCore';
import type { SignerKeyProvider } from '../../services/signer/keys/signerKeys';
import type { Deployment, TestChain } from './evm';
import { captureLogs } from './logCapture';
import { buildKeyProvider } from './signerFixtures';

/** Overrides of `buildSignerStack`. */
export interface SignerStackOverrides {
  /** Chain id the issuers sign for; default the test chain's. */
  chainId?: number;
  keys?: SignerKeyProvider;
  consumedNonces?: ConsumedNonceLookup;
  bufferSeconds?: number;
}

/**
 * The signing core wired to a test chain through `createSignerCore`, as the composition root wires it to Base,
 * with a ManualClock and captured logs.
 */
export function buildSignerStack(
  chain: TestChain,
  deployment: Deployment,
  overrides: SignerStackOverrides = {},
) {
  const clock = new ManualClock();
  const logs = captureLogs();
  const core = createSignerCore({
    chainId: overrides.chainId ?? chain.chainId,
    provider: chain.provider,
    forgeAddress: deployment.forgeAddress,
    seedAddress: deployment.seedAddress,
    keys: overrides.keys ?? buildKeyProvider(),
    bufferSeconds: overrides.bufferSeconds,
    consumedNonces: overrides.consumedNonces,
    clock,
    logger: logs.logger,
  });
  return { ...core, clock, logs };
}
