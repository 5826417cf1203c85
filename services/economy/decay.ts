import type { Agenda } from 'agenda';
import type { Logger } from 'pino';
import { SYSTEM_ACCOUNTS } from './accountIds';
import type { EconomyCore } from './economyCore';

/** Name of the Agenda job that applies the monthly soft-currency decay. */
export const ECONOMY_DECAY_JOB = 'economy-decay';
/** SPEC 1: soft currency decays 1% per month (ECONOMY_SOFT_DECAY_MONTHLY_PERCENT's default). */
export const DEFAULT_DECAY_PERCENT = 1;
/** Most months one run catches up after downtime. */
const MAX_CATCH_UP = 24;

/** What a decay run did: the months it applied and the accounts and amount decayed. */
export interface DecayReport {
  periods: string[];
  accounts: number;
  amount: number;
}

/** `YYYY-MM` of a time (UTC). */
export function periodOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** The month after `period`. */
function nextPeriod(period: string): string {
  const [year, month] = period.split('-').map(Number);
  return periodOf(Date.UTC(year, month, 1));
}

/**
 * The monthly decay (SPEC 1: 1% per month), applied once per calendar month after it ends: a run on or after the
 * 1st (UTC) decays every user and address account holding soft currency by floor(1% of its spendable balance) into
 * the `system:decay` account, as ledger lines of kind `decay`. Held currency does not decay. The job runs hourly and
 * does nothing until a month has ended; after downtime it catches up month by month (each on the balances of the
 * moment). Never twice for one period: each account's decay is an operation keyed `decay:<account>:<YYYY-MM>`, and
 * its `decayedThrough` moves forward only; the decay account's `decayedThrough` marks the last finished month. The
 * first run ever decays only the month that ended last.
 */
export class SoftCurrencyDecay {
  /** Decay per month in basis points (1% = 100). */
  private readonly basisPoints: number;

  constructor(
    private readonly core: EconomyCore,
    private readonly logger: Logger,
    percentPerMonth = DEFAULT_DECAY_PERCENT,
  ) {
    this.basisPoints = Math.round(percentPerMonth * 100);
  }

  /** Applies every ended month not applied yet. */
  async run(): Promise<DecayReport> {
    const lastEnded = periodOf(Date.UTC(...yearMonth(this.core.clock.now()), 0));
    const marker = await this.core.legs.read(SYSTEM_ACCOUNTS.decay);
    const report: DecayReport = { periods: [], accounts: 0, amount: 0 };
    let period = marker.decayedThrough ? nextPeriod(marker.decayedThrough) : lastEnded;
    while (period <= lastEnded && report.periods.length < MAX_CATCH_UP) {
      await this.applyPeriod(period, report);
      await this.core.accounts.updateOne(
        { _id: SYSTEM_ACCOUNTS.decay },
        { $max: { decayedThrough: period } },
      );
      report.periods.push(period);
      period = nextPeriod(period);
    }
    if (report.periods.length > 0) this.logger.info({ report }, 'soft currency decayed');
    return report;
  }

  /** Registers the job, hourly. */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(ECONOMY_DECAY_JOB, async () => {
      await this.run();
    });
    await agenda.every('1 hour', ECONOMY_DECAY_JOB);
  }

  private async applyPeriod(period: string, report: DecayReport): Promise<void> {
    const due = await this.core.accounts
      .find(
        {
          owner: { $in: ['user', 'address'] },
          soft: { $gt: 0 },
          $or: [{ decayedThrough: { $exists: false } }, { decayedThrough: { $lt: period } }],
        },
        { soft: 1 },
      )
      .lean();
    for (const account of due) {
      const amount = Math.floor((account.soft * this.basisPoints) / 10_000);
      if (amount > 0 && (await this.decay(account._id, period, amount))) {
        report.accounts += 1;
        report.amount += amount;
      }
      await this.core.accounts.updateOne({ _id: account._id }, { $max: { decayedThrough: period } });
    }
  }

  /** One account's decay for `period`; false when its balance fell below the amount meanwhile (skipped). */
  private async decay(account: string, period: string, amount: number): Promise<boolean> {
    try {
      const outcome = await this.core.runner.run({
        id: `decay:${account}:${period}`,
        kind: 'decay',
        ref: period,
        request: { account, period },
        legs: [
          { account, currency: 'soft', delta: -amount, kind: 'decay', floor: 'available' },
          { account: SYSTEM_ACCOUNTS.decay, currency: 'soft', delta: amount, kind: 'decay', floor: 'none' },
        ],
      });
      return !outcome.replayed;
    } catch (error) {
      if ((error as { code?: string }).code === 'INSUFFICIENT_FUNDS') return false;
      throw error;
    }
  }
}

function yearMonth(ms: number): [number, number] {
  const date = new Date(ms);
  return [date.getUTCFullYear(), date.getUTCMonth()];
}
