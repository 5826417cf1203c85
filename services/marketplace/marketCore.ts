import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import { marketListingModel, type MarketListingRecord } from '../../models/MarketListing';
import { marketSaleModel, type MarketSaleRecord } from '../../models/MarketSale';
import type { Clock } from '../../platform/clock';
import type { World } from '../../rooms/content/world';
import type { EconomyService } from '../economy';
import type { WorldItems } from '../mud';
import type { ListingVectors } from './listingVectors';

/** What every marketplace command works with. */
export interface MarketCore {
  listings: Model<MarketListingRecord>;
  sales: Model<MarketSaleRecord>;
  economy: EconomyService;
  items: WorldItems;
  world: World;
  vectors: ListingVectors;
  clock: Clock;
  logger: Logger;
  /** The platform's share of a sale, percent (ECONOMY_CREATOR_FEE_PERCENT; SPEC 1: 5, so creators get 95%). */
  feePercent: number;
}

/** Binds the marketplace's models to `connection` and builds their indexes. */
export async function marketModels(connection: Connection) {
  const listings = marketListingModel(connection);
  const sales = marketSaleModel(connection);
  await Promise.all([listings.init(), sales.init()]);
  return { listings, sales };
}
