import { signatureReuseAlerts } from '../../../../services/signer/metrics';
import { reportReuseAttempt } from '../../../../services/signer/usage/reuseAlerts';
import { captureLogs } from '../../../helpers/logCapture';
import {
  InMemoryConsumedNonces,
  SignatureUsageTracker,
} from '../../../../services/signer/usage/usageTracker';
import { send } from '../../../helpers/contractCalls';
import { deployContracts, startTestChain, type Deployment, type TestChain } from '../../../helpers/evm';
import { signerAddress } from '../../../helpers/signerFixtures';
import { buildSignerStack } from '../../../helpers/signerStack';

let chain: TestChain;
let deployment: Deployment;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 84532, accounts: 2 });
  deployment = await deployContracts(chain, signerAddress(84532));
});

afterAll(async () => {
  await chain.close();
});

/** A tracker over the test chain that records consumed nonces, as the signer process runs it. */
function buildTracking(fromBlock: number) {
  const consumedNonces = new InMemoryConsumedNonces();
  const tracker = new SignatureUsageTracker({
    chainId: 84532,
    logs: chain.provider,
    contracts: [deployment.seedAddress],
    fromBlock,
    confirmations: 0,
    onConsumed: async (event) => consumedNonces.record(event),
  });
  return { consumedNonces, tracker };
}

async function alertCount(kind = 'punk-seed-mint', reason = 'nonce_consumed'): Promise<number> {
  const metric = await signatureReuseAlerts.get();
  const value = metric.values.find(
    (sample) => sample.labels.kind === kind && sample.labels.reason === reason,
  );
  return value?.value ?? 0;
}

describe('reuse alerts', () => {
  it('alerts (metric + warning) when a cached nonce is already consumed, then signs with the fresh nonce', async () => {
    const { consumedNonces, tracker } = buildTracking(await chain.provider.getBlockNumber());
    const stack = buildSignerStack(chain, deployment, { consumedNonces });
    const minter = chain.wallets[1];
    const first = await stack.mintIssuer.issueMint({ address: minter.address });
    expect(await stack.seedNonces.read(minter.address)).toBe(0n);
    await send(deployment.seed, minter, 'mintWithSignature', first.signature);
    expect(await tracker.poll()).toBe(1);
    const before = await alertCount();

    const second = await stack.mintIssuer.issueMint({ address: minter.address });

    expect(second.nonce).toBe(1n);
    expect((await alertCount()) - before).toBe(1);
    expect(stack.logs.lines.filter((line) => line.alert === 'SignatureReuse')).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'signature reuse attempt (nonce_consumed)',
        kind: 'punk-seed-mint',
        reason: 'nonce_consumed',
        chainId: 84532,
        contract: deployment.seedAddress,
        requester: minter.address,
        nonce: '0',
      }),
    ]);
    await send(deployment.seed, minter, 'mintWithSignature', second.signature);
    expect(await deployment.seed.getNonce(minter.address)).toBe(2n);
  });

  it('refuses with SIGNER_NONCE_STALE when the chain still reports a consumed nonce after a fresh read', async () => {
    const consumedNonces = new InMemoryConsumedNonces();
    const stack = buildSignerStack(chain, deployment, { consumedNonces });
    const minter = chain.wallets[0];
    // The store is ahead of the node: it saw nonce 0 consumed, the node (lagging) still reports 0.
    consumedNonces.record({
      chainId: 84532,
      contract: deployment.seedAddress,
      user: minter.address,
      nonce: 0n,
    });
    const error = await stack.mintIssuer
      .issueMint({ address: minter.address })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 503,
      code: 'SIGNER_NONCE_STALE',
      message: `Nonce 0 of ${minter.address} is already consumed but the chain still reports it; retry shortly`,
    });
  });

  it('raises the alert for a client-reported SignatureAlreadyUsed revert', async () => {
    const logs = captureLogs();
    const before = await alertCount('forge-claim', 'signature_already_used');
    const signatureHash = `0x${'ab'.repeat(32)}`;
    reportReuseAttempt(
      {
        kind: 'forge-claim',
        reason: 'signature_already_used',
        chainId: 8453,
        contract: deployment.forgeAddress,
        requester: chain.wallets[1].address,
        signatureHash,
      },
      logs.logger,
    );
    expect((await alertCount('forge-claim', 'signature_already_used')) - before).toBe(1);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: 40,
        alert: 'SignatureReuse',
        msg: 'signature reuse attempt (signature_already_used)',
        signatureHash,
      }),
    ]);
  });
});
