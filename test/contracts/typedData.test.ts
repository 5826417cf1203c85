import { TypedDataEncoder, Wallet, id, type Contract } from 'ethers';
import {
  buildForgeDomain,
  computeForgeId,
  FORGE_CLAIM_TYPES,
  FORGE_START_TYPES,
  FORGE_START_WINDOW_SECONDS,
  ForgePath,
} from '../../contracts/typedData';
import { deployContracts, startTestChain, testKey, type TestChain } from '../helpers/evm';

let chain: TestChain;
let forge: Contract;
let forgeAddress: string;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 8453, accounts: 1 });
  ({ forge, forgeAddress } = await deployContracts(chain, new Wallet(testKey('typed data signer')).address));
});

afterAll(async () => {
  await chain.close();
});

describe('typed data definitions', () => {
  it('lists ForgeStart and ForgeClaim members in the order of SPEC 2.8', () => {
    expect(TypedDataEncoder.from(FORGE_START_TYPES).encodeType('ForgeStart')).toBe(
      'ForgeStart(address forger,uint8 path,uint256 zenCommitted,bytes32 forgeId,uint256 nonce)',
    );
    expect(TypedDataEncoder.from(FORGE_CLAIM_TYPES).encodeType('ForgeClaim')).toBe(
      'ForgeClaim(bytes32 forgeId,address forger,uint256 nonce)',
    );
  });

  it('match the contract type hashes, start window and domain separator (TheForge, 2, chain id, address)', async () => {
    expect(await forge.FORGE_START_TYPEHASH()).toBe(
      id(TypedDataEncoder.from(FORGE_START_TYPES).encodeType('ForgeStart')),
    );
    expect(await forge.FORGE_CLAIM_TYPEHASH()).toBe(
      id(TypedDataEncoder.from(FORGE_CLAIM_TYPES).encodeType('ForgeClaim')),
    );
    expect(await forge.START_WINDOW()).toBe(BigInt(FORGE_START_WINDOW_SECONDS));
    expect(await forge.domainSeparator()).toBe(
      TypedDataEncoder.hashDomain(buildForgeDomain(8453, forgeAddress)),
    );
    expect(await forge.domainSeparator()).not.toBe(
      TypedDataEncoder.hashDomain(buildForgeDomain(84532, forgeAddress)),
    );
  });

  it('computes forgeId as the contract does, for every path', async () => {
    const forger = chain.wallets[0].address;
    for (const path of [
      ForgePath.Labor,
      ForgePath.Craft,
      ForgePath.Trade,
      ForgePath.Wisdom,
      ForgePath.Chaos,
    ]) {
      const input = { forger, path, timestamp: 1_767_225_600 + path, nonce: BigInt(path * 3) };
      expect(computeForgeId(input)).toBe(
        await forge.computeForgeId(forger, path, input.timestamp, input.nonce),
      );
    }
  });
});
