import type { AuditRecorder } from '../../../models/AuditEvent';
import type { Clock } from '../../../platform/clock';
import type { MoneyEvent, MoneyEvents } from '../../economy';

/**
 * The economy's MoneyEvents port backed by the audit log: grants, transfers, holds and marketplace sales become
 * audit events of the same kind (`economy.grant`, `marketplace.sale`, …), the actor the one who asked, the target
 * the account credited (or the listing sold), amounts in smallest units.
 */
export function auditedMoneyEvents(audit: AuditRecorder, clock: Clock): MoneyEvents {
  return {
    record(event: MoneyEvent) {
      const detail = event.detail ?? {};
      const target =
        typeof detail.account === 'string'
          ? detail.account
          : typeof detail.to === 'string'
            ? detail.to
            : typeof detail.listing === 'string'
              ? `listing:${detail.listing}`
              : event.operation;
      audit.record({
        at: new Date(clock.now()),
        actor: event.actor,
        kind: event.type,
        target,
        outcome: 'ok',
        ip: null,
        request_id: null,
        details: {
          operation: event.operation,
          ...(event.currency ? { currency: event.currency } : {}),
          ...(event.amount !== undefined ? { amount: event.amount } : {}),
          ...detail,
        },
      });
    },
  };
}
