import { ManualClock } from '../../../platform/clock';
import { userAccount } from '../../../services/economy/accountIds';
import { RECOVERY_AFTER_MS } from '../../../services/economy/operations';
import {
  ECONOMY_SERVICE_TOKEN,
  as,
  fund,
  newKey,
  signUp,
  startEconomyPlatform,
  type EconomyPlatform,
  type EconomyUser,
} from './economyPlatform';

describe('economy under concurrency, replays, the supply cap and interrupted operations', () => {
  let platform: EconomyPlatform;
  let url: string;
  let admin: EconomyUser;
  let ann: EconomyUser;
  let bob: EconomyUser;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    platform = await startEconomyPlatform({ ROLES: 'api' }, clock);
    url = platform.server.url;
    admin = await signUp(url, platform.admin);
  });
  afterAll(() => platform.stop());
  beforeEach(async () => {
    ann = await signUp(url);
    bob = await signUp(url);
  });

  const wallet = async (user: EconomyUser) =>
    (await as(url, user.token).get('/economy/wallet').expect(200)).body;
  const audit = async () => (await as(url, admin.token).get('/admin/economy/audit').expect(200)).body;
  const pay = (amount: number, key = newKey('pay')) =>
    as(url, ann.token).post('/economy/transfer', {
      to_user_id: bob.userId,
      currency: 'soft',
      amount: String(amount),
      idempotency_key: key,
    });

  it('never overdraws: 25 concurrent spends of 10 from 100 leave exactly 10 paid and 0 left', async () => {
    await fund(url, ann.userId, 100);
    const results = await Promise.all(Array.from({ length: 25 }, () => pay(10)));
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(
      results.filter((res) => res.status === 409).every((res) => res.body.code === 'INSUFFICIENT_FUNDS'),
    ).toBe(true);
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    expect(await wallet(ann)).toMatchObject({ soft: '0' });
    expect(await wallet(bob)).toMatchObject({ soft: '100' });
    expect((await audit()).ok).toBe(true);
  }, 120_000);

  it('applies one of 20 concurrent replays of one key; every replay answers the same transfer', async () => {
    await fund(url, ann.userId, 100);
    const key = newKey('pay');
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(7, key)));
    expect(results.map((res) => res.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((res) => res.body.transfer_id)).size).toBe(1);
    expect(results.filter((res) => res.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect((await wallet(ann)).soft).toBe('93');
    expect((await wallet(bob)).soft).toBe('7');
  }, 120_000);

  it('never mints hard currency past the 21,000,000 cap, even with concurrent grants', async () => {
    const grant = (amount: number) =>
      as(url, ECONOMY_SERVICE_TOKEN).post('/economy/grants', {
        user_id: ann.userId,
        currency: 'hard',
        amount: String(amount),
        reason: 'cap test',
        idempotency_key: newKey('grant'),
      });
    const minted = BigInt((await audit()).hard.minted);
    await grant(Number(21_000_000n - minted - 10n)).expect(201);
    const results = await Promise.all([grant(5), grant(5), grant(5)]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 201, 409]);
    const refused = results.find((res) => res.status === 409);
    expect(refused?.body).toMatchObject({
      code: 'SUPPLY_CAP_REACHED',
      detail: 'Granting 5 hard currency would pass the 21000000 supply cap (0 left)',
    });
    const report = await audit();
    expect(report.hard).toMatchObject({ minted: '21000000', within_cap: true, ok: true });
    expect(report.ok).toBe(true);
  });

  it('completes an operation interrupted after its debit: the audit counts it in flight, recovery finishes it', async () => {
    await fund(url, ann.userId, 50);
    const { core } = platform.area.economy;
    const id = `transfer:${ann.userId}:${newKey('crash')}`;
    const legs = [
      {
        account: userAccount(ann.userId),
        currency: 'soft' as const,
        delta: -20,
        kind: 'transfer' as const,
        floor: 'available' as const,
      },
      {
        account: userAccount(bob.userId),
        currency: 'soft' as const,
        delta: 20,
        kind: 'transfer' as const,
        floor: 'none' as const,
      },
    ];
    // What a process killed between the two legs leaves: the operation pending, only the debit applied.
    const now = new Date(clock.now());
    await core.operations.create({
      _id: id,
      kind: 'transfer',
      ref: 'crash',
      requestHash: 'x',
      legs,
      state: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    await core.legs.apply(legs[0], `${id}:0`, id, 'crash');
    const during = await audit();
    expect(during).toMatchObject({ ok: true, pending_operations: 1 });
    expect(during.soft.in_flight).toBe('20');
    clock.advance(RECOVERY_AFTER_MS + 1);
    expect(await platform.area.recovery.run()).toMatchObject({ operationsResumed: 1 });
    expect((await wallet(bob)).soft).toBe('20');
    expect((await wallet(ann)).soft).toBe('30');
    expect(await audit()).toMatchObject({ ok: true, pending_operations: 0, soft: { in_flight: '0' } });
  });

  it('keeps a refused leg refused: a concurrent execution of the same operation cannot move coins after a credit', async () => {
    await fund(url, ann.userId, 5);
    const { core } = platform.area.economy;
    const id = `transfer:${ann.userId}:${newKey('race')}`;
    const debit = {
      account: userAccount(ann.userId),
      currency: 'soft' as const,
      delta: -10,
      kind: 'transfer' as const,
      floor: 'available' as const,
    };
    // Execution A is refused; a credit lands; execution B of the same leg must not apply it now.
    await expect(core.legs.apply(debit, `${id}:0`, id, 'race')).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    await fund(url, ann.userId, 100);
    await expect(core.legs.apply(debit, `${id}:0`, id, 'race')).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      detail: 'The spendable soft balance 5 does not cover 10',
    });
    expect((await wallet(ann)).soft).toBe('105');
    const other = `transfer:${ann.userId}:${newKey('race')}`;
    await expect(core.legs.apply(debit, `${other}:0`, other, 'race')).resolves.toMatchObject({
      balanceAfter: 95,
    });
    // Its other leg, so the books balance for the tests after this one.
    const credit = { ...debit, account: userAccount(bob.userId), delta: 10, floor: 'none' as const };
    await core.legs.apply(credit, `${other}:1`, other, 'race');
    expect((await audit()).ok).toBe(true);
  });

  it('pays 150 concurrent grants out of the sharded issuer without running out of rounds, keeping the audit', async () => {
    const users = await Promise.all(Array.from({ length: 15 }, () => signUp(url)));
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        as(url, ECONOMY_SERVICE_TOKEN).post('/economy/grants', {
          user_id: users[i % users.length].userId,
          currency: 'soft',
          amount: '1',
          reason: 'burst',
          idempotency_key: newKey('burst'),
        }),
      ),
    );
    expect(results.filter((res) => res.status !== 201).map((res) => res.body.code)).toEqual([]);
    expect((await audit()).ok).toBe(true);
  }, 120_000);
});
