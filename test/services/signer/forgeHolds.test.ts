import { silentLogger } from '../../../platform/logger';
import { addressAccount } from '../../../services/economy/accountIds';
import { FORGE_HOLD_GRACE_MS } from '../../../services/economy/forgeFunds';
import { EconomyRecovery } from '../../../services/economy/recovery';
import { send } from '../../helpers/contractCalls';
import { SIGNER_SERVICE_TOKEN, useSignerPlatform } from '../../helpers/signerPlatform';

const fixture = useSignerPlatform(4);

describe('forge holds on the economy account: placed at issue, consumed on chain start, released on expiry', () => {
  it('holds zenCommitted of an unlinked address, then consumes it once the start is seen on chain', async () => {
    const user = fixture.chain.wallets[1];
    const funds = fixture.signer.ledger;
    const { economy } = funds;
    const recovery = new EconomyRecovery(
      economy.core,
      fixture.signer.server.platform.stores.mongo,
      silentLogger,
    );
    await funds.credit({
      idempotencyKey: 'hold-grant-1',
      address: user.address,
      amount: 1000n,
      reason: 'test',
    });
    const account = addressAccount(user.address);

    const start = await fixture.post(
      '/api/forge/start',
      { forger: user.address, path: 0, zenCommitted: '300' },
      SIGNER_SERVICE_TOKEN,
    );
    expect(start.status).toBe(200);
    expect(await economy.account(account)).toMatchObject({ soft: 700, held: 300 });
    fixture.signer.clock.advance(61_000);
    const tooMuch = await fixture.post(
      '/api/forge/start',
      { forger: user.address, path: 0, zenCommitted: '701' },
      SIGNER_SERVICE_TOKEN,
    );
    expect([tooMuch.status, tooMuch.body.code]).toEqual([409, 'SIGNER_INSUFFICIENT_BALANCE']);

    await fixture.chain.setNextBlockTimestamp(start.body.expiresAt);
    await send(fixture.deployment.forge, user, 'startForge', 0, 300n, start.body.signature);
    await fixture.chain.mine();
    await fixture.chain.mine();
    expect(await recovery.run()).toMatchObject({ holdsConsumed: 0, holdsReleased: 0 });
    await fixture.signer.area.trackUsage?.();
    expect(await recovery.run()).toMatchObject({ holdsConsumed: 1, holdsReleased: 0 });
    expect(await economy.account(account)).toMatchObject({ soft: 700, held: 0 });
    expect((await economy.audit()).soft.burned).toBe(300);
    expect(await recovery.run()).toMatchObject({ holdsConsumed: 0, holdsReleased: 0 });
    expect((await economy.audit()).ok).toBe(true);
  });

  it('releases the hold of a start signature that expired unused', async () => {
    const user = fixture.chain.wallets[2];
    const token = await fixture.signer.signIn(user);
    const { economy } = fixture.signer.ledger;
    const recovery = new EconomyRecovery(
      economy.core,
      fixture.signer.server.platform.stores.mongo,
      silentLogger,
    );
    await fixture.signer.ledger.credit({
      idempotencyKey: 'hold-grant-2',
      address: user.address,
      amount: 500n,
      reason: 'test',
    });
    const start = await fixture.post(
      '/api/forge/start',
      { forger: user.address, path: 1, zenCommitted: '200' },
      token,
    );
    expect(start.status).toBe(200);
    const me = await fixture.signer.server.platform.stores.mongo
      .collection('identities')
      .findOne({ subject: user.address.toLowerCase() });
    const userId = String(me?.userId);
    expect(await economy.wallet(userId)).toMatchObject({ soft: 300, held: 200 });
    fixture.signer.clock.advance(FORGE_HOLD_GRACE_MS + 120_000);
    expect(await recovery.run()).toMatchObject({ holdsConsumed: 0, holdsReleased: 1 });
    expect(await economy.wallet(userId)).toMatchObject({ soft: 500, held: 0 });
    expect((await economy.audit()).ok).toBe(true);
  });
});
