import { SignerConfigError, SignerMismatchError } from '../../../../services/signer/errors';
import { send } from '../../../helpers/contractCalls';
import {
  deployContracts,
  startTestChain,
  testKey,
  type Deployment,
  type TestChain,
} from '../../../helpers/evm';
import { buildKeyProvider, SIGNER_KEYS, signerAddress } from '../../../helpers/signerFixtures';
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

describe('createSignerCore', () => {
  it('verify() passes and returns the signer address when chain and key match the deployment', async () => {
    expect(await buildSignerStack(chain, deployment).verify()).toBe(signerAddress(84532));
  });

  it('verify() stops on an RPC endpoint of another chain', async () => {
    const stack = buildSignerStack(chain, deployment, {
      chainId: 8453,
      keys: buildKeyProvider({ 8453: SIGNER_KEYS[84532] }),
    });
    const error = await stack.verify().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignerConfigError);
    expect((error as Error).message).toBe(
      'RPC endpoint serves chain 84532, but the signer is configured for 8453',
    );
  });

  it('verify() stops with SignerMismatchError when the key is not the contracts signer', async () => {
    const stack = buildSignerStack(chain, deployment, {
      keys: buildKeyProvider({ 84532: testKey('rotated away') }),
    });
    await expect(stack.verify()).rejects.toBeInstanceOf(SignerMismatchError);
  });

  it('its usage tracker drops the cached nonce of a user whose signature was consumed', async () => {
    const stack = buildSignerStack(chain, deployment);
    const user = chain.wallets[1];
    const consumed: string[] = [];
    const tracker = stack.createUsageTracker({
      fromBlock: (await chain.provider.getBlockNumber()) + 1,
      confirmations: 0,
      onConsumed: async (event) => {
        consumed.push(event.signatureHash);
      },
    });
    const mint = await stack.mintIssuer.issueMint({ address: user.address });
    expect(await stack.seedNonces.read(user.address)).toBe(0n);
    await send(deployment.seed, user, 'mintWithSignature', mint.signature);
    expect(await stack.seedNonces.read(user.address)).toBe(0n);

    expect(await tracker.poll()).toBe(1);
    expect(consumed).toEqual([mint.record.signatureHash]);
    expect(await stack.seedNonces.read(user.address)).toBe(1n);
  });
});
