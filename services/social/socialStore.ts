import type { Connection } from 'mongoose';
import { socialBotCursorModel } from '../../models/SocialBotCursor';
import { socialEdgeModel } from '../../models/SocialEdge';
import { socialIdentityModel, type SocialIdentityRecord } from '../../models/SocialIdentity';
import { socialInteractionModel } from '../../models/SocialInteraction';
import { socialLinkCodeModel } from '../../models/SocialLinkCode';
import { socialSyncBatchModel } from '../../models/SocialSyncBatch';
import { socialTopicModel } from '../../models/SocialTopic';
import { socialTrustChangeModel } from '../../models/SocialTrustChange';
import type { Clock } from '../../platform/clock';
import { identityKey, identityOfKey, type IdentityRef } from './identities';

/** The social graph's collections, bound to one connection, and the clock every command reads. */
export class SocialStore {
  readonly identities;
  readonly edges;
  readonly interactions;
  readonly changes;
  readonly topics;
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
    this.topics = socialTopicModel(connection);
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
        store.topics,
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
   * moving `last_seen` of the others to `seenAt`. Display names given are stored. One write and one read.
   */
  async persons(keys: Iterable<string>, seenAt: Date, names = new Map<string, string>()) {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return new Map<string, string>();
    await this.identities.collection.bulkWrite(
      unique.map((key) => {
        const ref = identityOfKey(key);
        const name = names.get(key);
        return {
          updateOne: {
            filter: { _id: key },
            update: {
              $setOnInsert: {
                platform: ref.platform,
                user_id: ref.user_id,
                person: key,
                first_seen: seenAt,
                linked_at: null,
                linked_by: null,
                ...(name === undefined ? { display_name: null } : {}),
              },
              $max: { last_seen: seenAt },
              ...(name === undefined ? {} : { $set: { display_name: name } }),
            },
            upsert: true,
          },
        };
      }) as never,
      { ordered: false },
    );
    const found = await this.identities.collection
      .find<Pick<SocialIdentityRecord, '_id' | 'person'>>({ _id: { $in: unique } } as never, {
        projection: { person: 1 },
      })
      .toArray();
    return new Map(found.map((identity) => [identity._id, identity.person]));
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
