import {
  InMemoryConsumedNonces,
  SignatureUsageTracker,
  type ConsumedSignature,
} from '../../../../services/signer/usage/usageTracker';
import { send } from '../../../helpers/contractCalls';
import { deployContracts, startTestChain, type Deployment, type TestChain } from '../../../helpers/evm';
import { signerAddress } from '../../../helpers/signerFixtures';
import { buildSignerStack } from '../../../helpers/signerStack';

let chain: TestChain;
let deployment: Deployment;
let deployedAt: number;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 84532, accounts: 3 });
  deployment = await deployContracts(chain, signerAddress(84532));
  deployedAt = await chain.provider.getBlockNumber();
});

afterAll(async () => {
  await chain.close();
});

function buildTracker(
  overrides: { confirmations?: number; maxBlockRange?: number; fromBlock?: number } = {},
) {
  const seen: ConsumedSignature[] = [];
  const tracker = new SignatureUsageTracker({
    chainId: 84532,
    logs: chain.provider,
    contracts: [deployment.forgeAddress, deployment.seedAddress],
    fromBlock: overrides.fromBlock ?? deployedAt,
    confirmations: overrides.confirmations ?? 0,
    maxBlockRange: overrides.maxBlockRange,
    onConsumed: async (event) => {
      seen.push(event);
    },
  });
  return { tracker, seen };
}

describe('SignatureUsageTracker', () => {
  it('reports each consumed signature with the hash stored in its record, once, across contracts', async () => {
    const stack = buildSignerStack(chain, deployment);
    const user = chain.wallets[1];
    const mint = await stack.mintIssuer.issueMint({ address: user.address });
    const mintReceipt = await send(deployment.seed, user, 'mintWithSignature', mint.signature);
    const start = await stack.forgeIssuer.issueStart({ forger: user.address, path: 1, zenCommitted: 9n });
    await chain.setNextBlockTimestamp(start.expiresAt);
    const startReceipt = await send(deployment.forge, user, 'startForge', 1, 9n, start.signature);

    const { tracker, seen } = buildTracker({ maxBlockRange: 1 });
    expect(await tracker.poll()).toBe(2);
    expect(
      seen.map((event) => [event.contract, event.user, event.nonce, event.signatureHash, event.blockNumber]),
    ).toEqual([
      [deployment.seedAddress, user.address, 0n, mint.record.signatureHash, mintReceipt.blockNumber],
      [deployment.forgeAddress, user.address, 0n, start.record.signatureHash, startReceipt.blockNumber],
    ]);
    expect(seen[1]).toMatchObject({ chainId: 84532, transactionHash: startReceipt.hash });
    expect(tracker.nextBlock).toBe(startReceipt.blockNumber + 1);
    expect(await tracker.poll()).toBe(0);
  });

  it('waits for the configured confirmations before reporting', async () => {
    const stack = buildSignerStack(chain, deployment);
    const user = chain.wallets[2];
    const { tracker, seen } = buildTracker({
      confirmations: 2,
      fromBlock: (await chain.provider.getBlockNumber()) + 1,
    });
    const mint = await stack.mintIssuer.issueMint({ address: user.address });
    await send(deployment.seed, user, 'mintWithSignature', mint.signature);

    expect(await tracker.poll()).toBe(0);
    await chain.mine();
    await chain.mine();
    expect(await tracker.poll()).toBe(1);
    expect(seen.map((event) => event.signatureHash)).toEqual([mint.record.signatureHash]);
  });

  it('feeds InMemoryConsumedNonces, which then flags the consumed nonce', async () => {
    const stack = buildSignerStack(chain, deployment);
    const user = chain.wallets[0];
    const consumed = new InMemoryConsumedNonces();
    const fromBlock = (await chain.provider.getBlockNumber()) + 1;
    await send(
      deployment.seed,
      user,
      'mintWithSignature',
      (await stack.mintIssuer.issueMint({ address: user.address })).signature,
    );
    const { tracker, seen } = buildTracker({ fromBlock });
    await tracker.poll();
    seen.forEach((event) => consumed.record(event));

    const query = {
      chainId: 84532,
      contract: deployment.seedAddress,
      user: user.address.toLowerCase(),
      nonce: 0n,
    };
    expect(await consumed.isConsumed(query)).toBe(true);
    expect(await consumed.isConsumed({ ...query, nonce: 1n })).toBe(false);
    expect(await consumed.isConsumed({ ...query, chainId: 8453 })).toBe(false);
  });
});
