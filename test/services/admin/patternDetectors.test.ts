import { fastFlips, largeAmounts, newAccountsLikeOld } from '../../../services/admin/economyDetectors';
import {
  failedSignInRuns,
  heavyActors,
  rateBursts,
  signatureReuse,
  type ScannedEvent,
} from '../../../services/admin/patternDetectors';

const T0 = Date.UTC(2026, 10, 26, 0, 0, 0);
const DAY = 86_400_000;

/** An audit event as the detectors read it. */
function buildEvent(overrides: Partial<ScannedEvent> & { minute?: number } = {}): ScannedEvent {
  const { minute = 0, ...rest } = overrides;
  return {
    at: new Date(T0 + minute * 60_000),
    actor: 'user:aaaaaaaaaaaaaaaaaaaaaaaa',
    kind: 'auth.sign_in',
    target: '',
    outcome: 'ok',
    ip: '10.0.0.1',
    details: {},
    ...rest,
  };
}

describe('pattern detectors', () => {
  it('rateBursts: a burst of one actor and kind against its EWMA baseline, not steady traffic', () => {
    const steady = Array.from({ length: 48 * 4 }, (_, i) =>
      buildEvent({ actor: 'user:steady', kind: 'mcp.tool_call', minute: i * 7 }),
    );
    const burst = Array.from({ length: 30 }, (_, i) =>
      buildEvent({ actor: 'user:bursty', kind: 'economy.transfer', minute: 600 + i / 10 }),
    );
    const found = rateBursts(
      [...steady, ...burst].sort((a, b) => +a.at - +b.at),
      T0,
      T0 + DAY,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      type: 'rate_burst',
      actor: 'user:bursty',
      kind: 'economy.transfer',
      count: 30,
      severity: 'high',
    });
    expect(found[0].explanation).toMatch(/^user:bursty did economy.transfer 30 times in 30 minutes/);
  });

  it('heavyActors: one actor far above the median of its peers', () => {
    const events = [
      ...['a', 'b', 'c', 'd', 'e', 'f'].flatMap((name) =>
        Array.from({ length: 3 }, () => buildEvent({ actor: `user:${name}`, kind: 'signer.request' })),
      ),
      ...Array.from({ length: 60 }, () => buildEvent({ actor: 'user:heavy', kind: 'signer.request' })),
    ];
    const found = heavyActors(events);
    expect(found.map((a) => [a.actor, a.count])).toEqual([['user:heavy', 60]]);
    expect(found[0].evidence).toMatchObject({ median: 3, actors: 7 });
  });

  it('failedSignInRuns: five failures in a row, high when a success follows, and stuffing from one address', () => {
    const fail = (minute: number, target: string, ip = '10.0.0.9') =>
      buildEvent({ kind: 'auth.sign_in_failed', actor: 'anonymous', outcome: 'failed', target, ip, minute });
    const events = [
      ...[0, 1, 2, 3, 4].map((m) => fail(m, 'address:0xvictim', `10.1.0.${m}`)),
      buildEvent({ kind: 'auth.sign_in', target: 'address:0xvictim', ip: '10.2.0.1', minute: 5 }),
      ...[10, 11, 12, 13, 14, 15].map((m, i) => fail(m, `email:user${i}@example.com`, '10.9.9.9')),
      ...[20, 21, 22].map((m) => fail(m, 'address:0xshort', '10.3.0.1')),
    ];
    const found = failedSignInRuns(events);
    const victim = found.find((a) => a.target === 'address:0xvictim');
    expect(victim).toMatchObject({ severity: 'high', count: 5, evidence: { ended_in_success: true } });
    const stuffing = found.find((a) => a.evidence.ip === '10.9.9.9');
    expect(stuffing).toMatchObject({ severity: 'high', count: 6, evidence: { identities: 6 } });
    expect(stuffing?.explanation).toContain('credential stuffing');
    expect(found.some((a) => a.target === 'address:0xshort')).toBe(false);
  });

  it('signatureReuse: every reuse alert, grouped by address', () => {
    const alert = (target: string) =>
      buildEvent({ kind: 'signer.reuse_alert', actor: 'system', outcome: 'alert', target });
    const found = signatureReuse([
      alert('address:0x1'),
      alert('address:0x1'),
      alert('address:0x2'),
      buildEvent(),
    ]);
    expect(found.map((a) => [a.target, a.count, a.severity])).toEqual([
      ['address:0x1', 2, 'high'],
      ['address:0x2', 1, 'high'],
    ]);
  });

  it('largeAmounts: a transfer orders of magnitude above the others of its kind and currency', () => {
    const transfer = (amount: number) =>
      buildEvent({
        kind: 'economy.transfer',
        details: { amount, currency: 'soft' },
        actor: `user:${amount}`,
      });
    const events = [...Array.from({ length: 30 }, (_, i) => transfer(10 + (i % 7))), transfer(250_000)];
    const found = largeAmounts(events);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      type: 'large_amount',
      actor: 'user:250000',
      evidence: { amount: 250_000 },
    });
    expect(largeAmounts(events.slice(0, 5).concat(transfer(250_000)))).toEqual([]);
  });

  it('fastFlips: the same item resold within the hour, not a resale days later', () => {
    const sale = (minute: number, buyer: string, seller: string, amount: number, item = 'village:cloth') =>
      buildEvent({
        kind: 'marketplace.sale',
        actor: `user:${buyer}`,
        minute,
        details: { seller, item, amount },
      });
    const found = fastFlips([
      sale(0, 'flipper', 'ann', 50),
      sale(20, 'bob', 'flipper', 80),
      sale(30, 'slow', 'ann', 50, 'forest:herb'),
      sale(3000, 'cara', 'slow', 90, 'forest:herb'),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      actor: 'user:flipper',
      count: 1,
      evidence: { items: ['village:cloth'], margin: 30 },
    });
  });

  it('newAccountsLikeOld: a day-old account with the volume and mix of established ones', () => {
    const mix = (actor: string, n: number) =>
      Array.from({ length: n }, (_, i) =>
        buildEvent({ actor, kind: i % 2 ? 'marketplace.sale' : 'economy.transfer' }),
      );
    const created = new Map<string, Date>([
      ['user:old1', new Date(T0 - 90 * DAY)],
      ['user:old2', new Date(T0 - 60 * DAY)],
      ['user:old3', new Date(T0 - 30 * DAY)],
      ['user:new', new Date(T0 + 60_000)],
      ['user:newquiet', new Date(T0 + 60_000)],
    ]);
    const events = [
      ...mix('user:old1', 30),
      ...mix('user:old2', 24),
      ...mix('user:old3', 26),
      ...mix('user:new', 40),
      ...mix('user:newquiet', 4),
    ];
    const found = newAccountsLikeOld(events, created, new Date(T0));
    expect(found.map((a) => a.actor)).toEqual(['user:new']);
    expect(found[0].score).toBeGreaterThanOrEqual(0.9);
  });
});
