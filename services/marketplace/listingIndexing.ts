import client from 'prom-client';
import type { MarketListingRecord } from '../../models/MarketListing';
import { registry } from '../../platform/metrics';
import type { MarketCore } from './marketCore';

/** Attempts to put a listing's vector in the search collection, by outcome (indexed, failed). */
export const listingIndexings = new client.Counter({
  name: 'marketplace_listing_indexings_total',
  help: 'Attempts to put an active listing into the semantic search collection, by outcome',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Active listings whose vector is not in the search collection, as last counted (after a failure, each recovery pass). */
export const listingsUnindexed = new client.Gauge({
  name: 'marketplace_listings_unindexed',
  help: 'Active listings not in the semantic search collection (semantic search and similar cannot find them)',
  registers: [registry],
});

/** Active listings not in the search collection (the partial index `unindexed_active` holds exactly these). */
const UNINDEXED = { state: 'active' as const, indexed: false };

/** The active listings semantic search cannot find yet, for the admin status. */
export interface IndexBacklog {
  active: number;
  unindexed: number;
  /** Of those, the ones whose indexing failed at least once (the others are being indexed right now). */
  failed: number;
  oldest: { id: string; listedAt: Date; attempts: number; error: string | null } | null;
}

/**
 * Puts an active listing's vector into the search collection and marks it `indexed`. Never throws: a failure (no
 * embedding provider answered, the vector store refused or is down) leaves the listing for sale but not findable by
 * semantic search, and is recorded on it (`indexAttempts`, `indexError`, `indexFailedAt`), counted
 * (`marketplace_listing_indexings_total{outcome="failed"}`, the gauge `marketplace_listings_unindexed`) and logged;
 * the recovery job (every 10 s) retries it 30 s after the last attempt. The listing's answer says `search_indexed`.
 */
export async function indexListing(
  core: MarketCore,
  listing: MarketListingRecord,
): Promise<MarketListingRecord> {
  if (listing.state !== 'active' || listing.indexed) return listing;
  try {
    await core.vectors.index(listing);
  } catch (error) {
    return failed(core, listing, error);
  }
  listingIndexings.inc({ outcome: 'indexed' });
  await core.listings.updateOne(
    { _id: listing._id },
    { $set: { indexed: true }, $unset: { indexAttempts: 1, indexError: 1, indexFailedAt: 1 } },
  );
  const { indexAttempts: _a, indexError: _e, indexFailedAt: _f, ...indexed } = listing;
  return { ...indexed, indexed: true };
}

/** Counts the active listings not indexed and sets the gauge (the recovery pass, after each failure). */
export async function countUnindexed(core: MarketCore): Promise<number> {
  const unindexed = await core.listings.countDocuments(UNINDEXED);
  listingsUnindexed.set(unindexed);
  return unindexed;
}

/** Counts active listings and those not indexed (and sets the gauge), with the oldest not indexed. */
export async function indexBacklog(core: MarketCore): Promise<IndexBacklog> {
  const [active, unindexed, failedCount, oldest] = await Promise.all([
    core.listings.countDocuments({ state: 'active' }),
    core.listings.countDocuments(UNINDEXED),
    core.listings.countDocuments({ ...UNINDEXED, indexAttempts: { $gt: 0 } }),
    core.listings.findOne(UNINDEXED).sort({ createdAt: 1 }).lean<MarketListingRecord>(),
  ]);
  listingsUnindexed.set(unindexed);
  return {
    active,
    unindexed,
    failed: failedCount,
    oldest: oldest
      ? {
          id: oldest._id.toHexString(),
          listedAt: oldest.createdAt,
          attempts: oldest.indexAttempts ?? 0,
          error: oldest.indexError ?? null,
        }
      : null,
  };
}

async function failed(
  core: MarketCore,
  listing: MarketListingRecord,
  error: unknown,
): Promise<MarketListingRecord> {
  listingIndexings.inc({ outcome: 'failed' });
  const attempts = (listing.indexAttempts ?? 0) + 1;
  const code = errorCode(error);
  const at = new Date(core.clock.now());
  core.logger.warn(
    { err: error, listing: listing._id.toHexString(), attempts, code },
    'listing could not be indexed for semantic search; the recovery job retries it',
  );
  await core.listings.updateOne(
    { _id: listing._id, indexed: false },
    { $set: { indexAttempts: attempts, indexError: code, indexFailedAt: at } },
  );
  await countUnindexed(core);
  return { ...listing, indexAttempts: attempts, indexError: code, indexFailedAt: at };
}

/** The error's stable code (`BRAIN_EMBEDDING_UNAVAILABLE`, ...), or its class name; never its message. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code)) return code;
  return error instanceof Error ? error.name.slice(0, 64) : 'UNKNOWN';
}
