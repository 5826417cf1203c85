import { keccak256, Wallet } from 'ethers';
import { FORGE_CLAIM_TYPES, FORGE_START_TYPES, ForgePath } from '../../../../contracts/typedData';
import type { AppError } from '../../../../platform/errors';
import { eventsOf, revertOf, send } from '../../../helpers/contractCalls';
import {
  deployContracts,
  startTestChain,
  testKey,
  type Deployment,
  type TestChain,
} from '../../../helpers/evm';
import { buildKeyProvider, signerAddress } from '../../../helpers/signerFixtures';
import { buildSignerStack } from '../../../helpers/signerStack';

let chain: TestChain;
let deployment: Deployment;

beforeAll(async () => {
  chain = await startTestChain({ chainId: 84532, accounts: 6 });
  deployment = await deployContracts(chain, signerAddress(84532));
});

afterAll(async () => {
  await chain.close();
});

/** Issues a start for `forger` through the stack and mines it at the predicted timestamp. */
async function startOnChain(
  stack: ReturnType<typeof buildSignerStack>,
  forger: Wallet,
  path = ForgePath.Labor,
) {
  const issued = await stack.forgeIssuer.issueStart({ forger: forger.address, path, zenCommitted: 500n });
  await chain.setNextBlockTimestamp(issued.expiresAt);
  const receipt = await send(deployment.forge, forger, 'startForge', path, 500n, issued.signature);
  return { issued, receipt };
}

describe('ForgeSignatureIssuer against TheForge in the EVM', () => {
  it('issues a start signature that startForge accepts in a block mined at the predicted timestamp', async () => {
    const stack = buildSignerStack(chain, deployment, { bufferSeconds: 15 });
    const forger = chain.wallets[1];
    const latest = await chain.latestTimestamp();
    const { issued, receipt } = await startOnChain(stack, forger, ForgePath.Wisdom);

    expect([issued.nonce, issued.expiresAt]).toEqual([0n, latest + 15]);
    expect((await chain.provider.getBlock(receipt.blockNumber))?.timestamp).toBe(issued.expiresAt);
    expect(eventsOf(receipt, deployment.forge)).toEqual([
      { name: 'SignatureConsumed', args: [forger.address, 0n, issued.record.signatureHash] },
      { name: 'ForgeStarted', args: [issued.forgeId, forger.address, BigInt(ForgePath.Wisdom), 500n, 0n] },
    ]);
    expect(await deployment.forge.getNonce(forger.address)).toBe(1n);
  });

  it('returns the record to store: kind, typed data, nonce, chain, contract, requester, signer, times', async () => {
    const stack = buildSignerStack(chain, deployment);
    const forger = chain.wallets[2];
    const issued = await stack.forgeIssuer.issueStart({ forger: forger.address, path: 2, zenCommitted: 42n });

    expect(issued.record).toEqual({
      kind: 'forge-start',
      chainId: 84532,
      contract: deployment.forgeAddress,
      requester: forger.address,
      signer: signerAddress(84532),
      nonce: '0',
      signature: issued.signature,
      signatureHash: keccak256(issued.signature),
      payload: {
        format: 'eip712',
        domain: {
          name: 'TheForge',
          version: '2',
          chainId: 84532,
          verifyingContract: deployment.forgeAddress,
        },
        primaryType: 'ForgeStart',
        types: FORGE_START_TYPES,
        message: { forger: forger.address, path: 2, zenCommitted: '42', forgeId: issued.forgeId, nonce: '0' },
      },
      issuedAt: new Date(stack.clock.now()),
      expiresAt: new Date(issued.expiresAt * 1000),
    });
    expect(stack.logs.lines.map((line) => [line.msg, line.kind, line.signatureHash])).toEqual([
      ['signature issued', 'forge-start', issued.record.signatureHash],
    ]);
  });

  it('issues a claim signature that claimForge accepts; nonces advance and replays revert', async () => {
    const stack = buildSignerStack(chain, deployment);
    const forger = chain.wallets[3];
    const { issued: start } = await startOnChain(stack, forger);
    const claim = await stack.forgeIssuer.issueClaim({ forgeId: start.forgeId, forger: forger.address });
    expect(claim.nonce).toBe(1n);
    expect(claim.record.payload).toMatchObject({ primaryType: 'ForgeClaim', types: FORGE_CLAIM_TYPES });

    const receipt = await send(deployment.forge, forger, 'claimForge', start.forgeId, claim.signature);
    expect(eventsOf(receipt, deployment.forge).map((event) => event.name)).toEqual([
      'SignatureConsumed',
      'ForgeClaimed',
    ]);
    expect(await deployment.forge.getNonce(forger.address)).toBe(2n);

    expect(
      await revertOf(
        send(deployment.forge, forger, 'claimForge', start.forgeId, claim.signature),
        deployment.forge,
      ),
    ).toEqual({
      name: 'SignatureAlreadyUsed',
      args: [claim.record.signatureHash],
    });
    expect(
      await revertOf(
        send(deployment.forge, forger, 'startForge', 0, 500n, start.signature),
        deployment.forge,
      ),
    ).toEqual({ name: 'SignatureAlreadyUsed', args: [start.record.signatureHash] });
  });

  it('refuses to sign claims for unknown, foreign or claimed forges', async () => {
    const stack = buildSignerStack(chain, deployment);
    const [, , , , owner, stranger] = chain.wallets;
    const unknownId = keccak256('0x02');
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'signed',
        (error: AppError) => `${error.status} ${error.code}`,
      );
    expect(await codeOf(stack.forgeIssuer.issueClaim({ forgeId: unknownId, forger: owner.address }))).toBe(
      '404 SIGNER_FORGE_NOT_FOUND',
    );
    const { issued } = await startOnChain(stack, owner);
    expect(
      await codeOf(stack.forgeIssuer.issueClaim({ forgeId: issued.forgeId, forger: stranger.address })),
    ).toBe('403 SIGNER_FORGE_NOT_OWNED');
    const claim = await stack.forgeIssuer.issueClaim({ forgeId: issued.forgeId, forger: owner.address });
    await send(deployment.forge, owner, 'claimForge', issued.forgeId, claim.signature);
    expect(
      await codeOf(stack.forgeIssuer.issueClaim({ forgeId: issued.forgeId, forger: owner.address })),
    ).toBe('409 SIGNER_FORGE_ALREADY_CLAIMED');
  });

  it('produces signatures the contract rejects with InvalidSignature for the wrong chain id or a wrong key', async () => {
    const forger = chain.wallets[5];
    const wrongChain = buildSignerStack(chain, deployment, {
      chainId: 8453,
      keys: buildKeyProvider({ 8453: testKey('signer 84532') }),
    });
    const wrongKey = buildSignerStack(chain, deployment, {
      keys: buildKeyProvider({ 84532: testKey('not the contract signer') }),
    });
    for (const stack of [wrongChain, wrongKey]) {
      const issued = await stack.forgeIssuer.issueStart({
        forger: forger.address,
        path: 0,
        zenCommitted: 1n,
      });
      await chain.setNextBlockTimestamp(issued.expiresAt);
      expect(
        await revertOf(
          send(deployment.forge, forger, 'startForge', 0, 1n, issued.signature),
          deployment.forge,
        ),
      ).toEqual({ name: 'InvalidSignature', args: [] });
    }
    expect(await deployment.forge.getNonce(forger.address)).toBe(0n);
  });
});
