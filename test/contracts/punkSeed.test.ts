import { getBytes, keccak256, Wallet, ZeroAddress, type Contract } from 'ethers';
import { punkSeedMintHash } from '../../contracts/typedData';
import { eventsOf, revertOf, send } from '../helpers/contractCalls';
import { deployContracts, startTestChain, testKey, type TestChain } from '../helpers/evm';

const signer = new Wallet(testKey('seed contract signer'));

let chain: TestChain;
let seed: Contract;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 8453 });
  seed = (await deployContracts(chain, signer.address)).seed;
});

afterAll(async () => {
  await chain.close();
});

async function signMint(to: string, key: Wallet = signer): Promise<string> {
  const nonce = BigInt(await seed.getNonce(to));
  return key.signMessage(getBytes(punkSeedMintHash(to, nonce)));
}

describe('PunkSeed', () => {
  it('mints one ERC-721 seed per signature and advances the nonce', async () => {
    const minter = chain.wallets[1];
    const signature = await signMint(minter.address);
    const receipt = await send(seed, minter, 'mintWithSignature', signature);

    expect(eventsOf(receipt, seed)).toEqual([
      { name: 'SignatureConsumed', args: [minter.address, 0n, keccak256(signature)] },
      { name: 'Minted', args: [minter.address, 1n, 0n] },
      { name: 'Transfer', args: [ZeroAddress, minter.address, 1n] },
    ]);
    expect(await seed.ownerOf(1n)).toBe(minter.address);
    expect(await seed.getNonce(minter.address)).toBe(1n);
    expect(await seed.isSignatureUsed(keccak256(signature))).toBe(true);
    expect([await seed.name(), await seed.symbol(), await seed.totalMinted()]).toEqual([
      'Punk Seed',
      'SEED',
      1n,
    ]);
  });

  it('reverts a replayed mint signature with SignatureAlreadyUsed', async () => {
    const minter = chain.wallets[2];
    const signature = await signMint(minter.address);
    await send(seed, minter, 'mintWithSignature', signature);

    expect(await revertOf(send(seed, minter, 'mintWithSignature', signature), seed)).toEqual({
      name: 'SignatureAlreadyUsed',
      args: [keccak256(signature)],
    });
  });

  it('reverts with InvalidSignature for another key, another minter, or the hex text of the hash', async () => {
    const [, , , minter] = chain.wallets;
    const wrongKey = await signMint(minter.address, new Wallet(testKey('unauthorised key')));
    const forSomeoneElse = await signMint(chain.wallets[1].address);
    const hexText = await signer.signMessage(punkSeedMintHash(minter.address, 0n));

    for (const signature of [wrongKey, forSomeoneElse, hexText]) {
      expect(await revertOf(send(seed, minter, 'mintWithSignature', signature), seed)).toEqual({
        name: 'InvalidSignature',
        args: [],
      });
    }
    expect(await seed.getNonce(minter.address)).toBe(0n);
  });

  it('computes the mint message hash exactly as the off-chain helper', async () => {
    const to = chain.wallets[3].address;
    expect(await seed.mintMessageHash(to, 7n)).toBe(punkSeedMintHash(to, 7n));
  });
});
