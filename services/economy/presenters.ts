import type { z } from 'zod';
import type { EconomyOperationRecord } from '../../models/EconomyOperation';
import type { AuditReport, CurrencyAudit } from './audit';
import type { LedgerPage, WalletView } from './accountReads';
import type { AuditSchema, GrantSchema, LedgerPageSchema, TransferSchema, WalletSchema } from './schemas';

/** The caller's balances as decimal strings. */
export function presentWallet(wallet: WalletView): z.infer<typeof WalletSchema> {
  return {
    soft: String(wallet.soft),
    hard: String(wallet.hard),
    held: String(wallet.held),
    updated_at: wallet.updatedAt?.toISOString() ?? null,
  };
}

/** A ledger page (the account itself is the caller's, so it is not repeated per entry). */
export function presentLedger(page: LedgerPage): z.infer<typeof LedgerPageSchema> {
  return {
    entries: page.entries.map((line) => ({
      id: line.id,
      currency: line.currency,
      delta: String(line.delta),
      held_delta: String(line.heldDelta),
      balance_after: String(line.balanceAfter),
      held_after: String(line.heldAfter),
      kind: line.kind,
      ref: line.ref,
      idempotency_key: line.key,
      at: line.at.toISOString(),
    })),
    next_cursor: page.nextCursor,
  };
}

/** A transfer from its operation (the same body for the first call and every replay). */
export function presentTransfer(operation: EconomyOperationRecord): z.infer<typeof TransferSchema> {
  const meta = operation.meta as { from: string; to: string; memo: string | null };
  const [debit] = operation.legs;
  return {
    transfer_id: operation._id,
    from_user_id: meta.from,
    to_user_id: meta.to,
    currency: debit.currency,
    amount: String(-debit.delta),
    memo: meta.memo,
    balance_after: String(operation.balancesAfter[0]),
    at: operation.createdAt.toISOString(),
  };
}

/** A grant from its operation. */
export function presentGrant(operation: EconomyOperationRecord): z.infer<typeof GrantSchema> {
  const credit = operation.legs[1];
  return {
    grant_id: operation._id,
    account: credit.account,
    currency: credit.currency,
    amount: String(credit.delta),
    reason: operation.ref,
    balance_after: String(operation.balancesAfter[1]),
    at: operation.createdAt.toISOString(),
  };
}

function presentCurrency(figures: CurrencyAudit) {
  return {
    balances: String(figures.balances),
    holds: String(figures.holds),
    fees: String(figures.fees),
    decayed: String(figures.decayed),
    minted: String(figures.minted),
    burned: String(figures.burned),
    in_flight: String(figures.inFlight),
    ok: figures.ok,
  };
}

/** The conservation audit. */
export function presentAudit(report: AuditReport): z.infer<typeof AuditSchema> {
  return {
    ok: report.ok,
    soft: presentCurrency(report.soft),
    hard: {
      ...presentCurrency(report.hard),
      cap: String(report.hard.cap),
      within_cap: report.hard.withinCap,
    },
    accounts: report.accounts,
    ledger_entries: report.ledgerEntries,
    mismatched_accounts: report.mismatchedAccounts,
    pending_operations: report.pendingOperations,
    took_ms: report.tookMs,
  };
}

/** Headers of a money-moving answer: `Idempotent-Replayed: true` when it repeats an earlier result. */
export function replayHeaders(replayed: boolean): Record<string, string> {
  return replayed ? { 'Idempotent-Replayed': 'true' } : {};
}
