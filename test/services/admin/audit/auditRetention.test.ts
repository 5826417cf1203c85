import type { AuditEvent } from '../../../../models/AuditEvent';
import { ManualClock } from '../../../../platform/clock';
import { openAuditLog, type AuditLog } from '../../../../services/admin';
import { AuditRetention } from '../../../../services/admin/audit/auditRetention';
import { searchAudit } from '../../../../services/admin/audit/auditSearch';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

const DAY = 86_400_000;

/** An audit event as an area records it. */
function buildAuditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    at: new Date(Date.UTC(2026, 0, 1)),
    actor: 'user:0123456789abcdef01234567',
    kind: 'economy.transfer',
    target: 'user:76543210fedcba9876543210',
    outcome: 'ok',
    ip: '10.0.0.1',
    request_id: 'req-1',
    details: { amount: 5, currency: 'soft' },
    ...overrides,
  };
}

describe('audit retention (AUDIT_RETENTION_DAYS)', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  let server: TestPlatform;
  let log: AuditLog;

  beforeAll(async () => {
    server = await startTestPlatform(
      {},
      async (context) => {
        log = await openAuditLog(context);
        return { close: () => log.close() };
      },
      clock,
    );
  });
  afterAll(() => server.stop());

  it('deletes events older than the retention, and the signatures no event carries any more', async () => {
    const now = clock.now();
    log.record(
      buildAuditEvent({
        at: new Date(now - 40 * DAY),
        kind: 'economy.grant',
        details: { reason: 'old bonus' },
      }),
    );
    log.record(buildAuditEvent({ at: new Date(now - 40 * DAY) }));
    log.record(buildAuditEvent({ at: new Date(now - 2 * DAY), details: { password: 'hunter2', amount: 7 } }));
    await log.flush();
    const before = await searchAudit(log.stores, { query: 'grant bonus', limit: 10 });
    expect(before.hits.map((hit) => hit.event.kind)).toEqual(['economy.grant']);

    const report = await new AuditRetention(log.stores, 30).run();
    // The old grant's and the old transfer's texts go (the recent transfer has no currency: a text of its own).
    expect(report).toEqual({ cutoff: new Date(now - 30 * DAY), events: 2, signatures: 2 });
    const left = await log.recent({}, 10);
    expect(left).toHaveLength(1);
    expect(left[0].details).toEqual({ password: '[redacted]', amount: 7 });
    const after = await searchAudit(log.stores, {
      query: 'grant bonus',
      limit: 10,
      kinds: ['economy.grant'],
    });
    expect(after.hits).toEqual([]);
    expect(await log.stores.vectors.size()).toBe(1);
  });
});
