import type { Agenda } from 'agenda';
import type { Connection, Types } from 'mongoose';
import type { Logger } from 'pino';
import { characterModel } from '../../../models/Character';
import { identityModel } from '../../../models/Identity';
import { sessionModel } from '../../../models/Session';
import { userModel } from '../../../models/User';
import type { Clock } from '../../../platform/clock';

/** The Agenda job's name. */
export const GUEST_RETENTION_JOB = 'auth.guest-retention';

/** How often the job runs. */
const GUEST_RETENTION_INTERVAL = '1 day';

/** Guests read per query. */
const BATCH = 500;

const DAY_MS = 86_400_000;

/**
 * Removes guests that never linked an identity and have not been seen for GUEST_RETENTION_DAYS: created before the
 * cutoff, with no character or one last saved before it. Their character, sessions and user go, in that order, so
 * an interrupted pass leaves nothing that points at a missing user. A guest that linked a wallet, email or SSO
 * identity is never removed: it is no longer a guest in anything but its origin.
 */
export class GuestRetention {
  private readonly users;
  private readonly identities;
  private readonly characters;
  private readonly sessions;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly retentionDays: number,
    private readonly logger: Logger,
  ) {
    this.users = userModel(connection);
    this.identities = identityModel(connection);
    this.characters = characterModel(connection);
    this.sessions = sessionModel(connection);
  }

  /** One pass over every guest created before the cutoff; returns how many were removed. */
  async sweep(): Promise<number> {
    const cutoff = this.clock.now() - this.retentionDays * DAY_MS;
    let removed = 0;
    let after: Types.ObjectId | undefined;
    for (;;) {
      const batch = await this.users
        .find(
          { guest: true, createdAt: { $lt: new Date(cutoff) }, ...(after ? { _id: { $gt: after } } : {}) },
          { _id: 1 },
        )
        .sort({ _id: 1 })
        .limit(BATCH)
        .lean();
      for (const { _id: userId } of batch) if (await this.removeIfExpired(userId, cutoff)) removed += 1;
      if (batch.length < BATCH) break;
      after = batch[batch.length - 1]?._id;
    }
    if (removed > 0)
      this.logger.info({ removed, retentionDays: this.retentionDays }, 'expired guests removed');
    return removed;
  }

  private async removeIfExpired(userId: Types.ObjectId, cutoff: number): Promise<boolean> {
    if (await this.identities.exists({ userId })) {
      // Linked since: a guest by origin only, never to be examined again.
      await this.users.updateOne({ _id: userId }, { $unset: { guest: 1 } });
      return false;
    }
    const character = await this.characters
      .findOne({ userId: userId.toHexString() }, { updatedAt: 1 })
      .lean();
    if (character && character.updatedAt >= cutoff) return false;
    await this.characters.deleteOne({ userId: userId.toHexString() });
    await this.sessions.deleteMany({ userId });
    await this.users.deleteOne({ _id: userId });
    return true;
  }

  /** Defines the job and runs it daily (a JobRegistrar). */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(GUEST_RETENTION_JOB, async () => {
      await this.sweep();
    });
    await agenda.every(GUEST_RETENTION_INTERVAL, GUEST_RETENTION_JOB);
  }
}
