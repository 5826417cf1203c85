import type { Logger } from 'pino';

/** A money-relevant event (grant, transfer, hold, sale, decay run) for the platform's audit log. Never secrets. */
export interface MoneyEvent {
  type: string;
  /** Who asked: `user:<id>`, `service` or `system`. */
  actor: string;
  /** The operation id (scope + idempotency key). */
  operation: string;
  currency?: string;
  amount?: number;
  detail?: Record<string, unknown>;
}

/**
 * Where the economy reports money-relevant events. The ledger is the always-on record of balances; this port is for
 * the admin-searchable audit log, which backs it when it exists. The default writes structured log lines.
 */
export interface MoneyEvents {
  record(event: MoneyEvent): void;
}

/** MoneyEvents as pino info lines with `audit: "economy"`. */
export function loggedMoneyEvents(logger: Logger): MoneyEvents {
  const log = logger.child({ component: 'economy', audit: 'economy' });
  return { record: (event) => log.info({ event }, event.type) };
}
