import type { Connection, Model } from 'mongoose';
import { marketListingModel, type MarketListingRecord } from '../../models/MarketListing';
import { marketSaleModel, type MarketSaleRecord } from '../../models/MarketSale';
import type { Clock } from '../../platform/clock';
import type { World } from '../../rooms/content/world';
import type { EconomyService } from '../economy';
import type { CharacterItems } from '../mud/characterItems';
import type { ListingVectors } from './listingVectors';

/** What every marketplace command works with. */
export interface MarketCore {
  listings: Model<MarketListingRecord>;
  sales: Model<MarketSaleRecord>;
  economy: EconomyService;
  items: CharacterItems;
  world: World;
  vectors: ListingVectors;
  clock: Clock;
}

/** Binds the marketplace's models to `connection` and builds their indexes. */
export async function marketModels(connection: Connection) {
  const listings = marketListingModel(connection);
  const sales = marketSaleModel(connection);
  await Promise.all([listings.init(), sales.init()]);
  return { listings, sales };
}
