import { CURRENCIES, type Currency, type EconomyAccountRecord } from '../../models/EconomyAccount';
import { HARD_SUPPLY_CAP, SYSTEM_ACCOUNTS, isSystemAccount } from './accountIds';
import type { EconomyCore } from './economyCore';

/** The conservation figures of one currency (smallest units). */
export interface CurrencyAudit {
  /** Spendable balances of users and addresses. */
  balances: number;
  holds: number;
  fees: number;
  decayed: number;
  minted: number;
  burned: number;
  /** Moved out of one account by an operation still in flight, not yet into the other (0 when idle). */
  inFlight: number;
  /** balances + holds + fees + decayed + inFlight == minted − burned. */
  ok: boolean;
}

/** The audit's answer: each currency's figures, the hard cap check, and the ledger-against-balances check. */
export interface AuditReport {
  ok: boolean;
  soft: CurrencyAudit;
  hard: CurrencyAudit & { cap: number; withinCap: boolean };
  accounts: number;
  ledgerEntries: number;
  /** Accounts whose balances differ from the sum of their ledger lines (should be none). */
  mismatchedAccounts: string[];
  pendingOperations: number;
  tookMs: number;
}

type Sums = Record<Currency, { balance: number; held: number }>;

/**
 * The conservation check over every account, the whole ledger and the operations in flight: per currency,
 * balances + holds + fees + decayed (+ in flight) = minted − burned, the hard supply is within the cap, and each
 * account's balances equal the sum of its ledger lines (plus lines still pending on the account that the ledger does
 * not hold yet: each line counts once).
 */
export async function auditEconomy(core: EconomyCore): Promise<AuditReport> {
  const started = performance.now();
  const accounts = await core.accounts.find({}, { soft: 1, hard: 1, held: 1, owner: 1, pending: 1 }).lean();
  const ledgerSums = await core.ledger.aggregate<{
    _id: { account: string; currency: Currency };
    delta: number;
    held: number;
    n: number;
  }>([
    {
      $group: {
        _id: { account: '$account', currency: '$currency' },
        delta: { $sum: '$delta' },
        held: { $sum: '$heldDelta' },
        n: { $sum: 1 },
      },
    },
  ]);
  const fromLedger = new Map(ledgerSums.map((row) => [`${row._id.account}|${row._id.currency}`, row]));
  const inLedger = await pendingLinesInLedger(core, accounts);
  const mismatchedAccounts = accounts
    .filter((account) => !matchesLedger(account, fromLedger, inLedger))
    .map((account) => account._id);
  const issuerCreated = accounts.some((account) => account._id === SYSTEM_ACCOUNTS.issuer);
  const holders = accounts.filter((account) => account.owner !== 'system');
  const inFlight = await inFlightAmounts(core);
  const audit = (currency: Currency): CurrencyAudit => {
    // A platform account's balance is the sum over it and its shards.
    const system = (base: string) =>
      accounts
        .filter((account) => isSystemAccount(account._id, base))
        .reduce((sum, a) => sum + a[currency], 0);
    const issuer = system(SYSTEM_ACCOUNTS.issuer);
    const figures = {
      balances: holders.reduce((sum, account) => sum + account[currency], 0),
      holds: currency === 'soft' ? holders.reduce((sum, account) => sum + account.held, 0) : 0,
      fees: system(SYSTEM_ACCOUNTS.fees),
      decayed: system(SYSTEM_ACCOUNTS.decay),
      // Until the first hard grant creates the issuer (with its genesis line), all of the cap is still unissued.
      minted: currency === 'hard' ? HARD_SUPPLY_CAP - (issuerCreated ? issuer : HARD_SUPPLY_CAP) : -issuer,
      burned: system(SYSTEM_ACCOUNTS.burn),
      inFlight: -inFlight[currency].balance - inFlight[currency].held,
    };
    const left = figures.balances + figures.holds + figures.fees + figures.decayed + figures.inFlight;
    return { ...figures, ok: left === figures.minted - figures.burned };
  };
  const soft = audit('soft');
  const hardFigures = audit('hard');
  const hard = {
    ...hardFigures,
    cap: HARD_SUPPLY_CAP,
    withinCap: hardFigures.minted <= HARD_SUPPLY_CAP && hardFigures.minted >= 0,
  };
  return {
    ok: soft.ok && hard.ok && hard.withinCap && mismatchedAccounts.length === 0,
    soft,
    hard,
    accounts: accounts.length,
    ledgerEntries: ledgerSums.reduce((sum, row) => sum + row.n, 0),
    mismatchedAccounts,
    pendingOperations: inFlight.operations,
    tookMs: Math.round(performance.now() - started),
  };
}

type AuditedAccount = Pick<EconomyAccountRecord, '_id' | 'soft' | 'hard' | 'held' | 'pending'>;

/**
 * The keys of lines on accounts' pending lists that the ledger already holds: a crash between the ledger write and
 * the pending pull (or a pull not done yet) leaves them on both, and they count once, as their ledger line.
 */
async function pendingLinesInLedger(core: EconomyCore, accounts: AuditedAccount[]): Promise<Set<string>> {
  const keys = accounts.flatMap((account) => account.pending.map((line) => line.key));
  if (keys.length === 0) return new Set();
  const recorded = await core.ledger.find({ key: { $in: keys } }, { key: 1 }).lean();
  return new Set(recorded.map((line) => line.key));
}

function matchesLedger(
  account: AuditedAccount,
  fromLedger: Map<string, { delta: number; held: number }>,
  inLedger: Set<string>,
): boolean {
  return CURRENCIES.every((currency) => {
    const recorded = fromLedger.get(`${account._id}|${currency}`) ?? { delta: 0, held: 0 };
    const pending = account.pending.filter((line) => line.currency === currency && !inLedger.has(line.key));
    const balance = recorded.delta + pending.reduce((sum, line) => sum + line.delta, 0);
    const held = recorded.held + pending.reduce((sum, line) => sum + line.heldDelta, 0);
    return balance === account[currency] && (currency === 'hard' || held === account.held);
  });
}

/** What the applied legs of still-pending operations changed in total (an unfinished transfer's debit). */
async function inFlightAmounts(core: EconomyCore): Promise<Sums & { operations: number }> {
  const sums: Sums = { soft: { balance: 0, held: 0 }, hard: { balance: 0, held: 0 } };
  const pending = await core.operations.find({ state: 'pending' }, { legs: 1 }).lean();
  for (const operation of pending) {
    const keys = operation.legs.map((_, index) => `${operation._id}:${index}`);
    const recorded = await core.ledger
      .find({ key: { $in: keys } }, { key: 1, currency: 1, delta: 1, heldDelta: 1 })
      .lean();
    const recordedKeys = new Set(recorded.map((line) => line.key));
    const onAccounts = await core.accounts.find({ 'pending.key': { $in: keys } }, { pending: 1 }).lean();
    const unrecorded = onAccounts.flatMap((row) =>
      row.pending.filter((line) => keys.includes(line.key) && !recordedKeys.has(line.key)),
    );
    for (const line of [...recorded, ...unrecorded]) {
      sums[line.currency].balance += line.delta;
      sums[line.currency].held += line.heldDelta;
    }
  }
  return { ...sums, operations: pending.length };
}
