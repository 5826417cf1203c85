import { getBytes, keccak256, verifyMessage } from 'ethers';
import { punkSeedMintHash } from '../../../../contracts/typedData';
import { eventsOf, revertOf, send } from '../../../helpers/contractCalls';
import { deployContracts, startTestChain, type Deployment, type TestChain } from '../../../helpers/evm';
import { buildKeyProvider, SIGNER_KEYS, signerAddress } from '../../../helpers/signerFixtures';
import { buildSignerStack } from '../../../helpers/signerStack';

let chain: TestChain;
let deployment: Deployment;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 8453, accounts: 4 });
  deployment = await deployContracts(chain, signerAddress(8453));
});

afterAll(async () => {
  await chain.close();
});

describe('MintSignatureIssuer against PunkSeed in the EVM', () => {
  it('issues a mint signature that mintWithSignature accepts; the nonce advances and a replay reverts', async () => {
    const stack = buildSignerStack(chain, deployment);
    const minter = chain.wallets[1];
    const first = await stack.mintIssuer.issueMint({ address: minter.address });
    expect(first.nonce).toBe(0n);
    expect(verifyMessage(getBytes(punkSeedMintHash(minter.address, 0n)), first.signature)).toBe(
      signerAddress(8453),
    );

    const receipt = await send(deployment.seed, minter, 'mintWithSignature', first.signature);
    expect(eventsOf(receipt, deployment.seed).slice(0, 2)).toEqual([
      { name: 'SignatureConsumed', args: [minter.address, 0n, first.record.signatureHash] },
      { name: 'Minted', args: [minter.address, 1n, 0n] },
    ]);
    expect(await deployment.seed.ownerOf(1n)).toBe(minter.address);

    const second = await stack.mintIssuer.issueMint({ address: minter.address });
    expect(second.nonce).toBe(1n);
    await send(deployment.seed, minter, 'mintWithSignature', second.signature);
    expect(await deployment.seed.getNonce(minter.address)).toBe(2n);

    expect(
      await revertOf(send(deployment.seed, minter, 'mintWithSignature', first.signature), deployment.seed),
    ).toEqual({
      name: 'SignatureAlreadyUsed',
      args: [keccak256(first.signature)],
    });
  });

  it('records the personal-message payload', async () => {
    const stack = buildSignerStack(chain, deployment);
    const minter = chain.wallets[2];
    const issued = await stack.mintIssuer.issueMint({ address: minter.address });
    expect(issued.record).toEqual({
      kind: 'punk-seed-mint',
      chainId: 8453,
      contract: deployment.seedAddress,
      requester: minter.address,
      signer: signerAddress(8453),
      nonce: '0',
      signature: issued.signature,
      signatureHash: keccak256(issued.signature),
      payload: {
        format: 'eip191',
        messageHash: punkSeedMintHash(minter.address, 0n),
        message: { to: minter.address, nonce: '0', tag: 'MINT_PUNK_SEED' },
      },
      issuedAt: new Date(stack.clock.now()),
      expiresAt: null,
    });
  });

  it('a signature from the other chain key (the message binds no chain id) reverts with InvalidSignature', async () => {
    const testnetKeyOnMainnet = buildSignerStack(chain, deployment, {
      keys: buildKeyProvider({ 8453: SIGNER_KEYS[84532] }),
    });
    const minter = chain.wallets[3];
    const issued = await testnetKeyOnMainnet.mintIssuer.issueMint({ address: minter.address });
    expect(
      await revertOf(send(deployment.seed, minter, 'mintWithSignature', issued.signature), deployment.seed),
    ).toEqual({
      name: 'InvalidSignature',
      args: [],
    });
  });
});
