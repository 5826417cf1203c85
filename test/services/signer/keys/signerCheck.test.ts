import {
  connectForgeContract,
  connectPunkSeedContract,
} from '../../../../services/signer/chain/chainContracts';
import { SignerMismatchError } from '../../../../services/signer/errors';
import { assertSignerMatches, verifySignerSetup } from '../../../../services/signer/keys/signerCheck';
import {
  deployContracts,
  startTestChain,
  testKey,
  type Deployment,
  type TestChain,
} from '../../../helpers/evm';
import { buildKeyProvider, SIGNER_KEYS, signerAddress } from '../../../helpers/signerFixtures';

let chain: TestChain;
let deployment: Deployment;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 84532, accounts: 1 });
  deployment = await deployContracts(chain, signerAddress(84532));
});

afterAll(async () => {
  await chain.close();
});

function targets() {
  return [
    {
      name: 'TheForge',
      chainId: 84532,
      contract: connectForgeContract(deployment.forgeAddress, chain.provider),
    },
    {
      name: 'PunkSeed',
      chainId: 84532,
      contract: connectPunkSeedContract(deployment.seedAddress, chain.provider),
    },
  ];
}

describe('signer start-up check', () => {
  it('returns the signer address when the key matches what the contracts expect', async () => {
    expect(await assertSignerMatches(targets()[0], buildKeyProvider())).toBe(signerAddress(84532));
    expect(await verifySignerSetup(targets(), buildKeyProvider())).toEqual(
      new Map([[84532, signerAddress(84532)]]),
    );
  });

  it('stops with SignerMismatchError naming both addresses when the key differs', async () => {
    const keys = buildKeyProvider({ 84532: testKey('stale signer key') });
    const error = await assertSignerMatches(targets()[0], keys).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignerMismatchError);
    const actual = (await keys.getSigner(84532)).address;
    expect(error).toMatchObject({
      status: 503,
      code: 'SIGNER_ADDRESS_MISMATCH',
      expected: signerAddress(84532),
      actual,
      message:
        `TheForge on chain 84532 expects signer ${signerAddress(84532)}, but the configured key is ${actual}; ` +
        'fix the key configuration or rotate the contract signer (setSigner)',
    });
  });

  it('refuses one key shared by two chain ids', async () => {
    const shared = {
      name: 'TheForge',
      chainId: 8453,
      contract: { signer: async () => signerAddress(84532) },
    };
    const keys = buildKeyProvider({ 8453: SIGNER_KEYS[84532] });
    const error = await verifySignerSetup([...targets(), shared], keys).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'SIGNER_MISCONFIGURED',
      message: `chains 84532 and 8453 share signer ${signerAddress(84532)}; use one key per chain id`,
    });
  });
});
