import type { Connection } from 'mongoose';
import { socialBotCursorModel } from '../../models/SocialBotCursor';
import { socialEdgeModel } from '../../models/SocialEdge';
import { socialIdentityModel, type SocialIdentityRecord } from '../../models/SocialIdentity';
import { socialInteractionModel } from '../../models/SocialInteraction';
import { socialLinkCodeModel } from '../../models/SocialLinkCode';
import { socialSyncBatchModel } from '../../models/SocialSyncBatch';
import { socialTrustChangeModel } from '../../models/SocialTrustChange';
import type { Clock } from '../../platform/clock';
import { identityKey, identityOfKey, type IdentityRef } from './identities';
import { chunksOf, ignoreDuplicateKeys } from './storeQueries';

/** How fresh `last_seen` is kept: an identity seen again within this is not written again (ms). */
export const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** The social graph's collections, bound to one connection, and the clock every command reads. */
export class SocialStore {
  readonly identities;
  readonly edges;
  readonly interactions;
  readonly changes;
  readonly batches;
  readonly cursors;
  readonly codes;

  private constructor(
    connection: Connection,
    readonly clock: Clock,
  ) {
    this.identities = socialIdentityModel(connection);
    this.edges = socialEdgeModel(connection);
    this.interactions = socialInteractionModel(connection);
    this.changes = socialTrustChangeModel(connection);
    this.batches = socialSyncBatchModel(connection);
    this.cursors = socialBotCursorModel(connection);
    this.codes = socialLinkCodeModel(connection);
  }

  /** Binds the models and builds their indexes. */
  static async open(connection: Connection, clock: Clock): Promise<SocialStore> {
    const store = new SocialStore(connection, clock);
    await Promise.all(
      [
        store.identities,
        store.edges,
        store.interactions,
        store.changes,
        store.batches,
        store.cursors,
        store.codes,
      ].map((model) => model.init()),
    );
    return store;
  }

  /** Now, as a Date. */
  now(): Date {
    return new Date(this.clock.now());
  }

  /**
   * The person of each identity key, creating the identities seen for the first time (each its own person) and
   * moving `last_seen` of the others to `seenAt` (at LAST_SEEN_RESOLUTION_MS resolution); display names given are stored when they changed. One read, then
   * one insert of the new identities, one update of all the known ones and one per changed name.
   */
  async persons(keys: Iterable<string>, seenAt: Date, names = new Map<string, string>()) {
    const unique = [...new Set(keys)];
    const persons = new Map<string, string>();
    if (unique.length === 0) return persons;
    const found = (
      await Promise.all(
        chunksOf(unique).map((ids) =>
          this.identities.collection
            .find<Pick<SocialIdentityRecord, '_id' | 'person' | 'display_name' | 'last_seen'>>(
              { _id: { $in: ids } } as never,
              { projection: { person: 1, display_name: 1, last_seen: 1 } },
            )
            .toArray(),
        ),
      )
    ).flat();
    for (const identity of found) persons.set(identity._id, identity.person);
    const fresh = unique.filter((key) => !persons.has(key));
    if (fresh.length > 0) {
      const created = fresh.map((key) => {
        const ref = identityOfKey(key);
        return {
          _id: key,
          platform: ref.platform,
          user_id: ref.user_id,
          person: key,
          display_name: names.get(key) ?? null,
          first_seen: seenAt,
          last_seen: seenAt,
          linked_at: null,
          linked_by: null,
        };
      });
      await this.identities.collection
        .insertMany(created as never, { ordered: false })
        .catch(ignoreDuplicateKeys);
      // A concurrent writer may have created some of them first (and linked them since): read what is stored.
      const stored = (
        await Promise.all(
          chunksOf(fresh).map((ids) =>
            this.identities.collection
              .find<Pick<SocialIdentityRecord, '_id' | 'person'>>({ _id: { $in: ids } } as never, {
                projection: { person: 1 },
              })
              .toArray(),
          ),
        )
      ).flat();
      for (const identity of stored) persons.set(identity._id, identity.person);
    }
    // last_seen has LAST_SEEN_RESOLUTION_MS resolution: identities seen that recently are not written again.
    const stale = found.filter(
      (identity) => identity.last_seen.getTime() < seenAt.getTime() - LAST_SEEN_RESOLUTION_MS,
    );
    if (stale.length > 0) {
      await Promise.all(
        chunksOf(stale.map((identity) => identity._id)).map((ids) =>
          this.identities.collection.updateMany({ _id: { $in: ids } } as never, {
            $max: { last_seen: seenAt },
          }),
        ),
      );
    }
    if (found.length > 0) {
      const renamed = found.filter(
        (identity) => names.has(identity._id) && names.get(identity._id) !== identity.display_name,
      );
      if (renamed.length > 0) {
        await this.identities.collection.bulkWrite(
          renamed.map((identity) => ({
            updateOne: {
              filter: { _id: identity._id },
              update: { $set: { display_name: names.get(identity._id) } },
            },
          })) as never,
          { ordered: false },
        );
      }
    }
    return persons;
  }

  /** The person of one identity, creating it when new. */
  async personOf(ref: IdentityRef): Promise<string> {
    const key = identityKey(ref);
    const persons = await this.persons([key], this.now());
    return persons.get(key) as string;
  }

  /** The person of one identity without creating it; null when the platform has never seen it. */
  async existingPersonOf(ref: IdentityRef): Promise<string | null> {
    const identity = await this.identities.findById(identityKey(ref), { person: 1 }).lean();
    return identity?.person ?? null;
  }

  /** The identities of a person, web first. */
  async identitiesOf(person: string): Promise<SocialIdentityRecord[]> {
    const found = await this.identities.find({ person }).lean<SocialIdentityRecord[]>();
    return found.sort((a, b) => Number(b.platform === 'web') - Number(a.platform === 'web'));
  }
}
