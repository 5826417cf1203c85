import type { MoneyEvent, MoneyEvents } from '../economy';
import type { Notify } from './notificationService';

/** The user id behind an economy account id (`user:<id>`), or undefined for address and system accounts. */
function userIdOf(account: unknown): string | undefined {
  return typeof account === 'string' && account.startsWith('user:') ? account.slice(5) : undefined;
}

/**
 * Money events as notifications: a transfer tells its recipient (`economy.transfer_received`), a marketplace sale
 * tells the seller (`marketplace.sale`) and the buyer (`marketplace.purchase`). The economy records each event
 * once per operation (never for a replayed request), so each notification is published once. Every event also
 * goes on to `next` (the audit log lines).
 */
export function notifyingMoneyEvents(notify: Notify, next: MoneyEvents): MoneyEvents {
  return {
    record(event: MoneyEvent) {
      next.record(event);
      const amount = {
        amount: String(event.amount ?? 0),
        currency: event.currency ?? null,
        operation: event.operation,
      };
      const detail = event.detail ?? {};
      if (event.type === 'economy.transfer') {
        const to = userIdOf(detail.to);
        if (to) notify(to, 'economy.transfer_received', { ...amount, from: userIdOf(event.actor) ?? null });
      } else if (event.type === 'marketplace.sale') {
        const buyer = userIdOf(event.actor);
        const seller = typeof detail.seller === 'string' ? detail.seller : undefined;
        const listing = detail.listing ?? null;
        if (seller) notify(seller, 'marketplace.sale', { ...amount, listing, buyer, fee: detail.fee ?? 0 });
        if (buyer) notify(buyer, 'marketplace.purchase', { ...amount, listing, seller: seller ?? null });
      }
    },
  };
}
