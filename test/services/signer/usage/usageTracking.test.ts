import { getBytes, Wallet } from 'ethers';
import request from 'supertest';
import { punkSeedMintHash } from '../../../../contracts/typedData';
import { chainCursorModel } from '../../../../models/ChainCursor';
import { SIGNER_USAGE_JOB } from '../../../../services/signer/usage/usageTracking';
import { revertOf, send } from '../../../helpers/contractCalls';
import { SIGNER_KEYS } from '../../../helpers/signerFixtures';
import {
  SIGNER_SERVICE_TOKEN,
  startSignerPlatform,
  useSignerPlatform,
} from '../../../helpers/signerPlatform';

const fixture = useSignerPlatform(6);
const { post } = fixture;

/** Mints through the API of `signer` and on chain; returns the signature. */
async function mintOnChain(user: Wallet): Promise<string> {
  const res = await post('/api/punk-seed/mint', { address: user.address }, SIGNER_SERVICE_TOKEN);
  expect(res.status).toBe(200);
  await send(fixture.deployment.seed, user, 'mintWithSignature', res.body.signature);
  return res.body.signature as string;
}

async function confirm(): Promise<void> {
  await fixture.chain.mine();
  await fixture.chain.mine();
}

async function metric(line: RegExp): Promise<number> {
  const text = (await request(fixture.signer.server.url).get('/metrics')).text;
  const match = text.split('\n').find((entry) => line.test(entry));
  return match ? Number(match.split(' ').at(-1)) : 0;
}

const cursorOf = async () =>
  (await chainCursorModel(fixture.signer.server.platform.stores.mongo).findOne().lean())?.nextBlock;

describe('usage tracking', () => {
  it('runs as an Agenda job on the worker: a consumed signature becomes used', async () => {
    const worker = await startSignerPlatform(fixture.chain, fixture.deployment, { ROLES: 'api,worker' });
    try {
      const user = fixture.chain.wallets[1];
      const res = await request(worker.server.url)
        .post('/api/punk-seed/mint')
        .set('Authorization', `Bearer ${SIGNER_SERVICE_TOKEN}`)
        .send({ address: user.address });
      await send(fixture.deployment.seed, user, 'mintWithSignature', res.body.signature);
      await confirm();
      const agenda = worker.server.platform.scheduler.agenda;
      // Ask the worker for a run now (it runs at once) instead of waiting for the 5 s schedule; a scheduled run
      // that started before the transaction was confirmed may complete first, so repeat until one saw the event.
      let used = false;
      for (let run = 0; run < 3 && !used; run += 1) {
        const completed = new Promise((resolve) => agenda.once(`complete:${SIGNER_USAGE_JOB}`, resolve));
        await agenda.now(SIGNER_USAGE_JOB);
        await completed;
        const stored = await worker.storedSignatures();
        used = stored.some((record) => record.signature === res.body.signature && record.used);
      }
      expect(used).toBe(true);
    } finally {
      await worker.stop();
    }
  });

  it('resumes from a cursor stored in MongoDB and never reports an event twice', async () => {
    await mintOnChain(fixture.chain.wallets[2]);
    await confirm();
    await fixture.signer.area.trackUsage?.();
    const head = await fixture.chain.provider.getBlockNumber();
    expect(await cursorOf()).toBe(head - 2 + 1);
    expect(await fixture.signer.area.trackUsage?.()).toBe(0);
    expect(await cursorOf()).toBe(head - 1);
  });

  it('alerts when a contract consumed a signature this signer never issued (leaked key)', async () => {
    const user = fixture.chain.wallets[3];
    const before = await metric(/^signer_unknown_signatures_consumed_total\{/);
    const nonce = (await fixture.deployment.seed.getNonce(user.address)) as bigint;
    const rogue = await new Wallet(SIGNER_KEYS[84532]).signMessage(
      getBytes(punkSeedMintHash(user.address, nonce)),
    );
    const receipt = await send(fixture.deployment.seed, user, 'mintWithSignature', rogue);
    await confirm();
    await fixture.signer.area.trackUsage?.();
    expect(await metric(/^signer_unknown_signatures_consumed_total\{/)).toBe(before + 1);
    // Filtered by user: the first test's mint was issued by another platform (database), so it is unknown here too.
    const alerts = fixture.signer.server.logs.lines.filter(
      (line) => line.alert === 'UnknownSignatureConsumed' && line.user === user.address,
    );
    expect(alerts).toEqual([
      expect.objectContaining({
        level: 'warn',
        contract: fixture.deployment.seedAddress,
        user: user.address,
        transactionHash: receipt.hash,
        msg: 'a contract consumed a signature this signer has no record of',
      }),
    ]);
  });
});

describe('reuse reports (SignatureAlreadyUsed)', () => {
  it('alert (metric + warning) for a replayed signature the contract confirms it consumed, and mark it used', async () => {
    const user = fixture.chain.wallets[4];
    const token = await fixture.signer.signIn(user);
    const signature = await mintOnChain(user);
    const replay = fixture.deployment.seed.connect(user).getFunction('mintWithSignature')(signature);
    expect((await revertOf(replay, fixture.deployment.seed)).name).toBe('SignatureAlreadyUsed');
    const alertLine =
      /^signer_signature_reuse_alerts_total\{kind="punk-seed-mint",reason="signature_already_used"\}/;
    const before = await metric(alertLine);

    const report = await post('/api/signatures/reuse-reports', { signature }, token);
    expect(report.status).toBe(200);
    expect(report.body).toEqual({
      signatureHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      kind: 'punk-seed-mint',
      used: true,
    });
    expect(await metric(alertLine)).toBe(before + 1);
    expect(fixture.signer.server.logs.lines.filter((line) => line.alert === 'SignatureReuse')).toEqual([
      expect.objectContaining({ level: 'warn', reason: 'signature_already_used', requester: user.address }),
    ]);
    expect(
      (await fixture.signer.storedSignatures()).find((record) => record.signature === signature)?.used,
    ).toBe(true);
    // The tracker still fills in the transaction later.
    await confirm();
    await fixture.signer.area.trackUsage?.();
    expect(
      (await fixture.signer.storedSignatures()).find((record) => record.signature === signature)?.txHash,
    ).toMatch(/^0x/);
  });

  it('refuse reports of unused, unknown or foreign signatures without alerting', async () => {
    const user = fixture.chain.wallets[5];
    const token = await fixture.signer.signIn(user);
    const unused = await post('/api/punk-seed/mint', { address: user.address }, token);
    const alertsBefore = fixture.signer.server.logs.lines.filter(
      (line) => line.alert === 'SignatureReuse',
    ).length;

    const notUsed = await post('/api/signatures/reuse-reports', { signature: unused.body.signature }, token);
    expect([notUsed.status, notUsed.body.code]).toEqual([409, 'SIGNER_SIGNATURE_NOT_USED']);
    const unknown = await post('/api/signatures/reuse-reports', { signature: `0x${'11'.repeat(65)}` }, token);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'SIGNER_SIGNATURE_UNKNOWN']);
    const otherToken = await fixture.signer.signIn(Wallet.createRandom());
    const foreign = await post(
      '/api/signatures/reuse-reports',
      { signature: unused.body.signature },
      otherToken,
    );
    expect([foreign.status, foreign.body.code]).toEqual([403, 'SIGNER_ADDRESS_NOT_OWNED']);
    expect(fixture.signer.server.logs.lines.filter((line) => line.alert === 'SignatureReuse')).toHaveLength(
      alertsBefore,
    );
  });
});
