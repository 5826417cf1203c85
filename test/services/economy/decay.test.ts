import { ManualClock } from '../../../platform/clock';
import {
  as,
  fund,
  signUp,
  startEconomyPlatform,
  type EconomyPlatform,
  type EconomyUser,
} from './economyPlatform';

describe('soft-currency decay: 1% per ended month, caught up after downtime, never twice', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 15));
  let platform: EconomyPlatform;
  let url: string;
  let admin: EconomyUser;
  let ann: EconomyUser;

  beforeAll(async () => {
    platform = await startEconomyPlatform({ ROLES: 'api' }, clock);
    url = platform.server.url;
    admin = await signUp(url, platform.admin);
    ann = await signUp(url);
  });
  afterAll(() => platform.stop());

  const soft = async () => (await platform.area.economy.wallet(ann.userId)).soft;

  it('decays once per month into the decay account, with decay ledger lines, keeping the audit balanced', async () => {
    await fund(url, ann.userId, 1000);
    await fund(url, ann.userId, 50, 'hard');
    const decay = platform.area.decay;
    expect(await decay.run()).toEqual({ periods: ['2026-02'], accounts: 1, amount: 10 });
    expect(await soft()).toBe(990);
    expect(await decay.run()).toEqual({ periods: [], accounts: 0, amount: 0 });
    clock.set(Date.UTC(2026, 2, 31, 23, 59));
    expect((await decay.run()).periods).toEqual([]);
    // Down from March to June 2nd: March, April and May are caught up, each on the balance of its moment.
    clock.set(Date.UTC(2026, 5, 2));
    expect(await decay.run()).toEqual({
      periods: ['2026-03', '2026-04', '2026-05'],
      accounts: 3,
      amount: 27,
    });
    expect(await soft()).toBe(963);
    expect((await platform.area.economy.wallet(ann.userId)).hard).toBe(50);
    // Sessions expired during the months the clock moved: sign in again.
    ann = await signUp(url, ann.wallet);
    admin = await signUp(url, platform.admin);
    const ledger = (await as(url, ann.token).get('/economy/ledger?currency=soft').expect(200)).body;
    expect(
      ledger.entries
        .filter((e: { kind: string }) => e.kind === 'decay')
        .map((e: { ref: string; delta: string }) => [e.ref, e.delta]),
    ).toEqual([
      ['2026-05', '-9'],
      ['2026-04', '-9'],
      ['2026-03', '-9'],
      ['2026-02', '-10'],
    ]);
    const report = (await as(url, admin.token).get('/admin/economy/audit').expect(200)).body;
    expect(report.ok).toBe(true);
    expect(report.soft.decayed).toBe('37');
  });

  it('takes the configured rate (ECONOMY_SOFT_DECAY_MONTHLY_PERCENT) instead of 1%', async () => {
    const other = await startEconomyPlatform(
      { ROLES: 'api', ECONOMY_SOFT_DECAY_MONTHLY_PERCENT: '2.5' },
      new ManualClock(Date.UTC(2026, 2, 15)),
    );
    try {
      const bob = await signUp(other.server.url);
      await fund(other.server.url, bob.userId, 1000);
      expect(await other.area.decay.run()).toEqual({ periods: ['2026-02'], accounts: 1, amount: 25 });
      expect((await other.area.economy.wallet(bob.userId)).soft).toBe(975);
    } finally {
      await other.stop();
    }
  });
});
