import type { Agenda } from 'agenda';
import type { Logger } from 'pino';
import type { MarketListingRecord } from '../../models/MarketListing';
import type { MarketSaleRecord } from '../../models/MarketSale';
import { RECOVERY_AFTER_MS } from '../economy';
import { countUnindexed, indexListing } from './listingIndexing';
import { completeEscrow, returnItem } from './listings';
import type { MarketCore } from './marketCore';
import { driveSale } from './purchases';

/** Name of the Agenda job that finishes interrupted purchases, escrows, returns and indexing. */
export const MARKETPLACE_RECOVERY_JOB = 'marketplace-recovery';

/** What one pass did. */
export interface MarketRecoveryReport {
  sales: number;
  escrows: number;
  returns: number;
  indexed: number;
  /** Sold listings whose vectors left the search collection. */
  unindexed: number;
}

/**
 * The marketplace's recovery pass (every 10 s): drives sales left `pending` or `paid` for over 30 s to their end,
 * finishes escrows of listings left `escrowing`, returns the items of cancelled listings, indexes active listings
 * whose indexing failed (30 s after their last attempt; a failure is recorded on the listing, see listingIndexing.ts),
 * takes sold listings out of the search collection, and recounts the listings not indexed (the gauge). Every
 * step it repeats is idempotent, so it may race live requests safely.
 */
export class MarketRecovery {
  constructor(
    private readonly core: MarketCore,
    private readonly logger: Logger,
  ) {}

  /** One pass. */
  async run(): Promise<MarketRecoveryReport> {
    const before = new Date(this.core.clock.now() - RECOVERY_AFTER_MS);
    const report: MarketRecoveryReport = { sales: 0, escrows: 0, returns: 0, indexed: 0, unindexed: 0 };
    const sales = await this.core.sales
      .find({ state: { $in: ['pending', 'paid'] }, updatedAt: { $lt: before } })
      .lean<MarketSaleRecord[]>();
    for (const sale of sales)
      report.sales += await this.attempt('sale', sale._id, () => driveSale(this.core, sale));
    const listings = await this.core.listings
      .find({
        updatedAt: { $lt: before },
        $or: [
          { state: 'escrowing' },
          { state: 'cancelled', returned: false },
          { state: 'active', indexed: false },
        ],
      })
      .lean<MarketListingRecord[]>();
    for (const listing of listings) {
      const id = listing._id.toHexString();
      if (listing.state === 'escrowing')
        report.escrows += await this.attempt('escrow', id, () => completeEscrow(this.core, listing));
      else if (listing.state === 'cancelled')
        report.returns += await this.attempt('return', id, () => returnItem(this.core, listing));
      else if ((await indexListing(this.core, listing)).indexed) report.indexed += 1;
    }
    report.unindexed = await this.unindexSold();
    await countUnindexed(this.core);
    if (report.sales + report.escrows + report.returns + report.indexed + report.unindexed > 0)
      this.logger.info({ report }, 'marketplace recovery');
    return report;
  }

  /**
   * Takes sold listings out of the search collection, in batches (off the purchase path: searches keep only active
   * listings anyway, so a sold listing's vector only takes a slot among the nearest until this runs).
   */
  private async unindexSold(): Promise<number> {
    const sold = await this.core.listings
      .find({ state: 'sold', indexed: true }, { _id: 1 })
      .limit(500)
      .lean();
    if (sold.length === 0) return 0;
    await this.core.vectors.remove(sold.map((listing) => listing._id.toHexString()));
    await this.core.listings.updateMany(
      { _id: { $in: sold.map((listing) => listing._id) } },
      { $set: { indexed: false } },
    );
    return sold.length;
  }

  /** Registers the job, every 10 s. */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(MARKETPLACE_RECOVERY_JOB, async () => {
      await this.run();
    });
    await agenda.every('10 seconds', MARKETPLACE_RECOVERY_JOB);
  }

  /** Runs one step; a step that fails is logged and retried on the next pass. Answers 1 when it completed. */
  private async attempt(step: string, id: string, work: () => Promise<unknown>): Promise<number> {
    try {
      await work();
      return 1;
    } catch (error) {
      this.logger.warn({ err: error, step, id }, 'marketplace recovery step failed');
      return 0;
    }
  }
}
