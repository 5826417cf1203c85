import { ethers } from 'ethers';
import { eventsOf, revertOf, send } from '../../helpers/contractCalls';
import { deployContracts, startTestChain } from '../../helpers/evm';
import { signerAddress } from '../../helpers/signerFixtures';
import { SIGNER_SERVICE_TOKEN, useSignerPlatform } from '../../helpers/signerPlatform';

const fixture = useSignerPlatform(6);
const { post } = fixture;

describe('signature routes end to end: HTTP → signature → contract in the EVM', () => {
  it('start, claim and mint signatures from the API are accepted on chain; replays revert; nonces advance', async () => {
    const user = fixture.chain.wallets[1];
    const token = await fixture.signer.signIn(user);
    await fixture.signer.ledger.credit({
      idempotencyKey: 'grant-1',
      address: user.address,
      amount: 5000n,
      reason: 'test',
    });
    const latest = await fixture.chain.latestTimestamp();

    const start = await post(
      '/api/forge/start',
      {
        forger: user.address,
        path: 2,
        zenCommitted: '5000',
      },
      token,
    );
    expect(start.status).toBe(200);
    expect(Object.keys(start.body)).toEqual(['forgeId', 'signature', 'nonce', 'expiresAt']);
    expect(start.body).toMatchObject({ nonce: 0, expiresAt: latest + 20 });
    await fixture.chain.setNextBlockTimestamp(start.body.expiresAt);
    const started = await send(fixture.deployment.forge, user, 'startForge', 2, 5000n, start.body.signature);
    expect((await fixture.chain.provider.getBlock(started.blockNumber))?.timestamp).toBe(
      start.body.expiresAt,
    );
    expect(eventsOf(started, fixture.deployment.forge).map((event) => event.name)).toEqual([
      'SignatureConsumed',
      'ForgeStarted',
    ]);
    expect((await fixture.deployment.forge.getForge(start.body.forgeId)).forger).toBe(user.address);
    const replayStart = fixture.deployment.forge.connect(user).getFunction('startForge')(
      2,
      5000n,
      start.body.signature,
    );
    expect((await revertOf(replayStart, fixture.deployment.forge)).name).toBe('SignatureAlreadyUsed');

    const claim = await post(
      '/api/forge/claim',
      {
        forgeId: start.body.forgeId,
        forger: user.address,
      },
      token,
    );
    expect(claim.status).toBe(200);
    expect(Object.keys(claim.body)).toEqual(['signature', 'nonce']);
    expect(claim.body.nonce).toBe(1);
    const claimed = await send(
      fixture.deployment.forge,
      user,
      'claimForge',
      start.body.forgeId,
      claim.body.signature,
    );
    expect(eventsOf(claimed, fixture.deployment.forge).map((event) => event.name)).toEqual([
      'SignatureConsumed',
      'ForgeClaimed',
    ]);
    const replayClaim = fixture.deployment.forge.connect(user).getFunction('claimForge')(
      start.body.forgeId,
      claim.body.signature,
    );
    expect((await revertOf(replayClaim, fixture.deployment.forge)).name).toBe('SignatureAlreadyUsed');

    const mint = await post('/api/punk-seed/mint', { address: user.address.toLowerCase() }, token);
    expect(mint.status).toBe(200);
    expect(mint.body.nonce).toBe(0);
    const minted = await send(fixture.deployment.seed, user, 'mintWithSignature', mint.body.signature);
    expect(eventsOf(minted, fixture.deployment.seed).map((event) => event.name)).toContain('Minted');
    const replayMint = fixture.deployment.seed.connect(user).getFunction('mintWithSignature')(
      mint.body.signature,
    );
    expect((await revertOf(replayMint, fixture.deployment.seed)).name).toBe('SignatureAlreadyUsed');
    const nextMint = await post('/api/punk-seed/mint', { address: user.address }, token);
    expect(nextMint.body.nonce).toBe(1);

    // Stored with their metadata; used only once the tracker has seen the events (2 confirmations).
    const stored = await fixture.signer.storedSignatures();
    expect(stored.map((record) => [record.kind, record.nonce, record.requester, record.used])).toEqual([
      ['forge-start', '0', user.address, false],
      ['forge-claim', '1', user.address, false],
      ['punk-seed-mint', '0', user.address, false],
      ['punk-seed-mint', '1', user.address, false],
    ]);
    expect(stored[0]).toMatchObject({
      chainId: 84532,
      contract: fixture.deployment.forgeAddress,
      signer: signerAddress(84532),
      signature: start.body.signature,
      signatureHash: ethers.keccak256(start.body.signature),
      expiresAt: new Date(start.body.expiresAt * 1000),
      payload: {
        format: 'eip712',
        primaryType: 'ForgeStart',
        domain: {
          name: 'TheForge',
          version: '2',
          chainId: 84532,
          verifyingContract: fixture.deployment.forgeAddress,
        },
        message: {
          forger: user.address,
          path: 2,
          zenCommitted: '5000',
          forgeId: start.body.forgeId,
          nonce: '0',
        },
      },
    });
    expect(stored[0].requestedBy).toMatch(/^user:[0-9a-f]{24}$/);
    expect(stored[2]).toMatchObject({ contract: fixture.deployment.seedAddress, expiresAt: null });

    await fixture.chain.mine();
    await fixture.chain.mine();
    expect(await fixture.signer.area.trackUsage?.()).toBeGreaterThanOrEqual(3);
    const tracked = await fixture.signer.storedSignatures();
    const receipts = [started, claimed, minted];
    for (const [index, receipt] of receipts.entries()) {
      const block = await fixture.chain.provider.getBlock(receipt.blockNumber);
      expect(tracked[index]).toMatchObject({
        used: true,
        txHash: receipt.hash,
        blockNumber: receipt.blockNumber,
        usedAt: new Date((block?.timestamp ?? 0) * 1000),
      });
    }
    expect(tracked[3]).toMatchObject({ used: false, txHash: null });
  });

  it('a start signature for Base Sepolia is refused by the same contract on another chain id (InvalidSignature)', async () => {
    const other = await startTestChain({ chainId: 8453, accounts: 3 });
    try {
      // Same deployer and nonces, so the same addresses, and the same signer: only the chain id differs.
      const mainnet = await deployContracts(other, signerAddress(84532));
      expect([mainnet.forgeAddress, mainnet.seedAddress]).toEqual([
        fixture.deployment.forgeAddress,
        fixture.deployment.seedAddress,
      ]);
      const user = other.wallets[2];
      await fixture.signer.ledger.credit({
        idempotencyKey: 'grant-2',
        address: user.address,
        amount: 10n,
        reason: 'test',
      });
      const start = await post(
        '/api/forge/start',
        {
          forger: user.address,
          path: 0,
          zenCommitted: '10',
        },
        SIGNER_SERVICE_TOKEN,
      );
      expect(start.status).toBe(200);
      await other.setNextBlockTimestamp(start.body.expiresAt);
      const attempt = mainnet.forge.connect(user).getFunction('startForge')(0, 10n, start.body.signature);
      expect((await revertOf(attempt, mainnet.forge)).name).toBe('InvalidSignature');
    } finally {
      await other.close();
    }
  });

  it('a contract rotated to another key refuses the signature; the signer stops within a minute and resumes', async () => {
    const user = fixture.chain.wallets[3];
    const owner = fixture.chain.wallets[0];
    const rotatedTo = ethers.Wallet.createRandom().address;
    const mint = await post('/api/punk-seed/mint', { address: user.address }, SIGNER_SERVICE_TOKEN);
    expect(mint.status).toBe(200);
    await send(fixture.deployment.seed, owner, 'setSigner', rotatedTo);
    const attempt = fixture.deployment.seed.connect(user).getFunction('mintWithSignature')(
      mint.body.signature,
    );
    expect((await revertOf(attempt, fixture.deployment.seed)).name).toBe('InvalidSignature');

    const storedBefore = (await fixture.signer.storedSignatures()).length;
    fixture.signer.clock.advance(60_000);
    const stopped = await post('/api/punk-seed/mint', { address: user.address }, SIGNER_SERVICE_TOKEN);
    expect(stopped.status).toBe(503);
    expect(stopped.body).toMatchObject({
      code: 'SIGNER_ADDRESS_MISMATCH',
      detail:
        `The signer is stopped: PunkSeed on chain 84532 expects signer ${rotatedTo}, but the configured key is ` +
        `${signerAddress(84532)}; fix the key configuration or rotate the contract signer (setSigner)`,
    });
    expect((await fixture.signer.storedSignatures()).length).toBe(storedBefore);
    expect(
      fixture.signer.server.logs.lines.filter(
        (line) => line.level === 'error' && line.component === 'signer',
      ),
    ).toEqual([
      expect.objectContaining({
        code: 'SIGNER_ADDRESS_MISMATCH',
        msg: expect.stringMatching(/^signer stopped: PunkSeed/),
      }),
    ]);

    await send(fixture.deployment.seed, owner, 'setSigner', signerAddress(84532));
    fixture.signer.clock.advance(5_000);
    const resumed = await post('/api/punk-seed/mint', { address: user.address }, SIGNER_SERVICE_TOKEN);
    // The nonce is still unused, so the signature is the same deterministic one (stored once, counted twice).
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual(mint.body);
    await send(fixture.deployment.seed, user, 'mintWithSignature', resumed.body.signature);
    const [record] = (await fixture.signer.storedSignatures()).filter(
      (stored) => stored.signature === mint.body.signature,
    );
    expect(record).toMatchObject({ timesIssued: 2, lastIssuedAt: new Date(fixture.signer.clock.now()) });
  });
});
