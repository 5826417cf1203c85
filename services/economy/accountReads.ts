import { Types } from 'mongoose';
import type { Currency, EconomyAccountRecord, LedgerLine } from '../../models/EconomyAccount';
import type { EconomyCore } from './economyCore';

/** An account's balances: spendable soft and hard, held soft, and when they last changed (null: never). */
export interface WalletView {
  soft: number;
  hard: number;
  held: number;
  updatedAt: Date | null;
}

/** The balances of account `id` (all zero for an account never used). */
export async function readWallet(core: EconomyCore, id: string): Promise<WalletView> {
  const account = await core.accounts
    .findById(id, { soft: 1, hard: 1, held: 1, updatedAt: 1 })
    .lean<Pick<EconomyAccountRecord, 'soft' | 'hard' | 'held' | 'updatedAt'>>();
  if (!account) return { soft: 0, hard: 0, held: 0, updatedAt: null };
  return { soft: account.soft, hard: account.hard, held: account.held, updatedAt: account.updatedAt };
}

/** One page of an account's ledger, newest first, and the cursor of the next page (null at the end). */
export interface LedgerPage {
  entries: Array<LedgerLine & { id: string }>;
  nextCursor: string | null;
}

/** The ledger of account `id`, newest first, `limit` per page, optionally one currency; `cursor` from a previous page. */
export async function readLedger(
  core: EconomyCore,
  id: string,
  options: { currency?: Currency; cursor?: string; limit: number },
): Promise<LedgerPage> {
  const filter: Record<string, unknown> = { account: id };
  if (options.currency) filter.currency = options.currency;
  if (options.cursor) filter._id = { $lt: new Types.ObjectId(options.cursor) };
  const rows = await core.ledger
    .find(filter)
    .sort({ _id: -1 })
    .limit(options.limit + 1)
    .lean();
  const page = rows.slice(0, options.limit);
  return {
    entries: page.map((row) => ({ ...row, id: row._id.toHexString() })),
    nextCursor: rows.length > options.limit ? (page.at(-1)?._id.toHexString() ?? null) : null,
  };
}
