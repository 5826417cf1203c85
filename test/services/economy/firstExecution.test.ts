import type { OperationLeg } from '../../../models/EconomyOperation';
import { ManualClock } from '../../../platform/clock';
import { userAccount } from '../../../services/economy/accountIds';
import { RECOVERY_AFTER_MS } from '../../../services/economy/operations';
import {
  as,
  fund,
  newKey,
  signUp,
  startEconomyPlatform,
  type EconomyPlatform,
  type EconomyUser,
} from './economyPlatform';

/**
 * The first execution of an operation applies its legs by compare-and-sets on accounts read before the operation
 * existed, in one ordered batch, and writes their ledger lines and pending pulls together at the end
 * (LegApplier.applyAll): what a stale read, a lost race and a crash inside that path leave.
 */
describe('economy: the first execution of an operation', () => {
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
    jest.restoreAllMocks();
  });

  const core = () => platform.area.economy.core;
  const wallet = async (user: EconomyUser) =>
    (await as(url, user.token).get('/economy/wallet').expect(200)).body;
  const audit = async () => (await as(url, admin.token).get('/admin/economy/audit').expect(200)).body;
  const transferLegs = (amount: number): OperationLeg[] => [
    {
      account: userAccount(ann.userId),
      currency: 'soft',
      delta: -amount,
      kind: 'transfer',
      floor: 'available',
    },
    { account: userAccount(bob.userId), currency: 'soft', delta: amount, kind: 'transfer', floor: 'none' },
  ];
  const transfer = (id: string, amount: number) =>
    core().runner.run({ id, kind: 'transfer', ref: 'test', request: { amount }, legs: transferLegs(amount) });
  const linesOf = (id: string) => core().ledger.countDocuments({ op: id });
  /** Moves `delta` between the user and the issuer by the checked path, as another process would. */
  const changeElsewhere = async (user: EconomyUser, delta: number) => {
    const op = `test:${newKey('elsewhere')}`;
    const legs: OperationLeg[] = [
      { account: userAccount(user.userId), currency: 'soft', delta, kind: 'grant', floor: 'available' },
      { account: 'system:issuer.0', currency: 'soft', delta: -delta, kind: 'grant', floor: 'none' },
    ];
    for (const [index, leg] of (delta < 0 ? legs : legs.reverse()).entries())
      await core().legs.apply(leg, `${op}:${index}`, op, 'elsewhere');
  };
  const pendingOf = async (user: EconomyUser) =>
    (await core().accounts.findById(userAccount(user.userId)).lean())?.pending ?? [];

  it('stops the batch at a leg whose account changed since it was read: a stale debit never credits first', async () => {
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 1);
    const id = `transfer:${ann.userId}:${newKey('stale')}`;
    const snapshots = await core().legs.snapshot([userAccount(ann.userId), userAccount(bob.userId)]);
    // Ann spends 90 in another process after the read: by the read she could pay 50, by her account she cannot.
    await changeElsewhere(ann, -90);
    const accounts = await core().accounts.countDocuments();
    const outcome = await core().legs.applyAll({ _id: id, ref: 'test', legs: transferLegs(50) }, snapshots);
    expect(outcome).toMatchObject({ refused: { code: 'INSUFFICIENT_FUNDS' } });
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['10', '1']);
    expect(await linesOf(id)).toBe(0);
    // The lost compare-and-set (an upsert) inserted nothing.
    expect(await core().accounts.countDocuments()).toBe(accounts);
    expect((await audit()).ok).toBe(true);
  });

  it('applies a leg whose account changed since it was read by the checked path, once', async () => {
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 1);
    const id = `transfer:${ann.userId}:${newKey('stale')}`;
    const snapshots = await core().legs.snapshot([userAccount(ann.userId), userAccount(bob.userId)]);
    await changeElsewhere(bob, 5);
    const outcome = await core().legs.applyAll({ _id: id, ref: 'test', legs: transferLegs(30) }, snapshots);
    expect(outcome).toMatchObject({ lines: [{ balanceAfter: 70 }, { balanceAfter: 36 }] });
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['70', '36']);
    expect(await linesOf(id)).toBe(2);
    expect([await pendingOf(ann), await pendingOf(bob)]).toEqual([[], []]);
    expect((await audit()).ok).toBe(true);
  });

  it('applies the operations batched after a lost race in the next batch, each once', async () => {
    const [cath, dan] = [await signUp(url), await signUp(url)];
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 1);
    await fund(url, cath.userId, 50);
    await fund(url, dan.userId, 1);
    const [stale, fresh] = [newKey('stale'), newKey('fresh')].map((key) => `transfer:${ann.userId}:${key}`);
    const accounts = [ann, bob, cath, dan].map((user) => userAccount(user.userId));
    const snapshots = await core().legs.snapshot(accounts);
    await changeElsewhere(ann, 5);
    const cathToDan = transferLegs(20).map((leg, index) => ({ ...leg, account: accounts[index + 2] }));
    const bulkWrite = jest.spyOn(core().accounts.collection, 'bulkWrite');
    // Submitted in one turn, the two operations' compare-and-sets share a batch; the stale one's first loses.
    const outcomes = await Promise.all([
      core().legs.applyAll({ _id: stale, ref: 'test', legs: transferLegs(30) }, snapshots),
      core().legs.applyAll({ _id: fresh, ref: 'test', legs: cathToDan }, snapshots),
    ]);
    // The first batch held all four; the fresh operation's two went again, alone, in the next.
    expect(bulkWrite.mock.calls[0][0]).toHaveLength(4);
    expect(bulkWrite.mock.calls[1][0]).toMatchObject([
      { updateOne: { filter: { _id: accounts[2] } } },
      { updateOne: { filter: { _id: accounts[3] } } },
    ]);
    expect(outcomes).toMatchObject([
      { lines: [{ balanceAfter: 75 }, { balanceAfter: 31 }] },
      { lines: [{ balanceAfter: 30 }, { balanceAfter: 21 }] },
    ]);
    const balances = await Promise.all([ann, bob, cath, dan].map(async (user) => (await wallet(user)).soft));
    expect(balances).toEqual(['75', '31', '30', '21']);
    expect([await linesOf(stale), await linesOf(fresh)]).toEqual([2, 2]);
    expect((await audit()).ok).toBe(true);
  });

  it('goes on from the state its own process left when a batched leg loses to it: no checked path', async () => {
    const [cath, dan] = [await signUp(url), await signUp(url)];
    await fund(url, ann.userId, 100);
    await fund(url, cath.userId, 100);
    await fund(url, dan.userId, 1);
    const accounts = [ann, cath, dan].map((user) => userAccount(user.userId));
    const snapshots = await core().legs.snapshot(accounts);
    const toDan = (from: string, amount: number) =>
      transferLegs(amount).map((leg, index) => ({ ...leg, account: index === 0 ? from : accounts[2] }));
    const [first, second] = [newKey('first'), newKey('second')].map((key) => `transfer:x:${key}`);
    const checked = jest.spyOn(core().ledger, 'findOne');
    // One batch: [ann, dan, cath, dan]; the second credit to Dan loses to the first and goes on from its state.
    const outcomes = await Promise.all([
      core().legs.applyAll({ _id: first, ref: 'test', legs: toDan(accounts[0], 10) }, snapshots),
      core().legs.applyAll({ _id: second, ref: 'test', legs: toDan(accounts[1], 20) }, snapshots),
    ]);
    expect(checked).not.toHaveBeenCalled();
    expect(outcomes).toMatchObject([
      { lines: [{ balanceAfter: 90 }, { balanceAfter: 11 }] },
      { lines: [{ balanceAfter: 80 }, { balanceAfter: 31 }] },
    ]);
    const balances = await Promise.all([ann, cath, dan].map(async (user) => (await wallet(user)).soft));
    expect(balances).toEqual(['90', '80', '31']);
    expect([await linesOf(first), await linesOf(second)]).toEqual([2, 2]);
    expect((await audit()).ok).toBe(true);
  });

  it('never goes on from a state of unknown history: a leg another execution applied stays applied once', async () => {
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 1);
    const id = `transfer:${ann.userId}:${newKey('overlap')}`;
    const snapshots = await core().legs.snapshot([userAccount(ann.userId), userAccount(bob.userId)]);
    // A retry of the same operation applies both legs by the checked path, then another transfer goes through the
    // batches: this process knows Ann's state after it, not what came between the read and it.
    for (const [index, leg] of transferLegs(30).entries())
      await core().legs.apply(leg, `${id}:${index}`, id, 'test');
    await transfer(`transfer:${ann.userId}:${newKey('after')}`, 10);
    const outcome = await core().legs.applyAll({ _id: id, ref: 'test', legs: transferLegs(30) }, snapshots);
    expect(outcome).toMatchObject({ lines: [{ balanceAfter: 70 }, { balanceAfter: 31 }] });
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['60', '41']);
    expect(await linesOf(id)).toBe(2);
    expect((await audit()).ok).toBe(true);
  });

  it('creates a missing account by its first swap, as reading it would, also when two credits race for it', async () => {
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 100);
    const cath = await signUp(url);
    const toCath = (from: EconomyUser, amount: number) =>
      transferLegs(amount).map((leg, index) => ({
        ...leg,
        account: userAccount((index === 0 ? from : cath).userId),
      }));
    const checked = jest.spyOn(core().ledger, 'findOne');
    const [first, second] = await Promise.all([
      core().runner.run({
        id: `t:${newKey('a')}`,
        kind: 'transfer',
        ref: 't',
        request: {},
        legs: toCath(ann, 7),
      }),
      core().runner.run({
        id: `t:${newKey('b')}`,
        kind: 'transfer',
        ref: 't',
        request: {},
        legs: toCath(bob, 5),
      }),
    ]);
    expect(checked).not.toHaveBeenCalled();
    // One credit landed on the blank account, the other on the state it left (in either order).
    expect(Math.max(first.operation.balancesAfter[1], second.operation.balancesAfter[1])).toBe(12);
    const created = await core().accounts.findById(userAccount(cath.userId)).lean();
    expect(created).toMatchObject({
      owner: 'user',
      soft: 12,
      hard: 0,
      held: 0,
      holds: [],
      v: 2,
      pending: [],
    });
    expect(created?.createdAt).toBeInstanceOf(Date);
    expect((await audit()).ok).toBe(true);
  });

  it('survives a crash after its compare-and-sets, before the ledger write: recovery records the lines once', async () => {
    await fund(url, ann.userId, 100);
    await fund(url, bob.userId, 1);
    const id = `transfer:${ann.userId}:${newKey('crash')}`;
    jest.spyOn(core().ledger.collection, 'insertMany').mockRejectedValueOnce(new Error('killed'));
    await expect(transfer(id, 40)).rejects.toThrow('killed');
    // What the dead process left: the coins moved, the lines only on the accounts, the operation pending.
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['60', '41']);
    expect([(await pendingOf(ann)).length, (await pendingOf(bob)).length]).toEqual([1, 1]);
    expect(await linesOf(id)).toBe(0);
    expect(await audit()).toMatchObject({ ok: true, pending_operations: 1 });
    clock.advance(RECOVERY_AFTER_MS + 1);
    expect(await platform.area.recovery.run()).toMatchObject({ operationsResumed: 1 });
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['60', '41']);
    expect(await linesOf(id)).toBe(2);
    expect([await pendingOf(ann), await pendingOf(bob)]).toEqual([[], []]);
    expect(await core().operations.findById(id).lean()).toMatchObject({
      state: 'done',
      balancesAfter: [60, 41],
    });
    expect(await audit()).toMatchObject({ ok: true, pending_operations: 0 });
  });

  it('survives a crash after the ledger write, before the pending pull: a retry answers it without paying again', async () => {
    await fund(url, ann.userId, 100);
    const key = newKey('crash');
    const accounts = core().accounts.collection;
    const bulkWrite = accounts.bulkWrite.bind(accounts);
    jest
      .spyOn(accounts, 'bulkWrite')
      .mockImplementationOnce(bulkWrite)
      .mockRejectedValueOnce(new Error('killed'));
    const body = { to_user_id: bob.userId, currency: 'soft', amount: '25', idempotency_key: key };
    await as(url, ann.token).post('/economy/transfer', body).expect(500);
    const id = `transfer:${ann.userId}:${key}`;
    expect(await linesOf(id)).toBe(2);
    expect((await pendingOf(ann)).map((line) => line.key)).toEqual([`${id}:0`]);
    const replay = await as(url, ann.token).post('/economy/transfer', body).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toMatchObject({ amount: '25', balance_after: '75' });
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['75', '25']);
    expect(await linesOf(id)).toBe(2);
    expect([await pendingOf(ann), await pendingOf(bob)]).toEqual([[], []]);
    expect(await audit()).toMatchObject({ ok: true, pending_operations: 0 });
  });

  it('audits ok right after a crash between the ledger write and the pending pull: each line counts once', async () => {
    await fund(url, ann.userId, 100);
    const id = `transfer:${ann.userId}:${newKey('audit')}`;
    const accounts = core().accounts.collection;
    const bulkWrite = accounts.bulkWrite.bind(accounts);
    // The compare-and-sets go through, the ledger lines are written, the pull from the pending lists is killed.
    jest
      .spyOn(accounts, 'bulkWrite')
      .mockImplementationOnce(bulkWrite)
      .mockRejectedValueOnce(new Error('killed'));
    await expect(transfer(id, 30)).rejects.toThrow('killed');
    expect(await linesOf(id)).toBe(2);
    expect([(await pendingOf(ann)).length, (await pendingOf(bob)).length]).toEqual([1, 1]);
    // Nothing recovered yet: the books balance, and the audit says so at once (it counted these lines twice).
    expect([(await wallet(ann)).soft, (await wallet(bob)).soft]).toEqual(['70', '30']);
    expect(await audit()).toMatchObject({
      ok: true,
      mismatched_accounts: [],
      pending_operations: 1,
      soft: { ok: true, in_flight: '0' },
    });
    clock.advance(RECOVERY_AFTER_MS + 1);
    expect(await platform.area.recovery.run()).toMatchObject({ operationsResumed: 1 });
    expect([await pendingOf(ann), await pendingOf(bob)]).toEqual([[], []]);
    expect(await audit()).toMatchObject({ ok: true, mismatched_accounts: [], pending_operations: 0 });
  });
});
