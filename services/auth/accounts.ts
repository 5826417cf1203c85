import { Types, type Connection } from 'mongoose';
import { identityModel, type IdentityKind, type IdentityRecord } from '../../models/Identity';
import { userModel, type UserRecord, type UserRole } from '../../models/User';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import { tierOf } from './tiers';

/** Identities granted the admin role on sign-in (bootstrap, from ADMIN_ADDRESSES / ADMIN_EMAILS). */
export interface BootstrapAdmins {
  wallets: Set<string>;
  emails: Set<string>;
}

/** What a proven sign-in adds to the identity record: a value is stored, null removes it, undefined leaves it. */
export interface IdentityProof {
  ensName?: string | null;
  email?: string;
}

/** The fields of an IdentityProof that are stored. */
type StoredProof = { [K in keyof IdentityProof]?: NonNullable<IdentityProof[K]> };

const DUPLICATE_KEY = 11000;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number }).code === DUPLICATE_KEY;
}

/**
 * Users and their sign-in identities. An identity belongs to exactly one user; signing in with a new identity
 * creates a user, unless the caller is signed in, in which case the identity is linked to that user. An identity
 * already owned by someone else is never moved (409): accounts are never silently merged.
 */
export class Accounts {
  private readonly users;
  private readonly identities;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly admins: BootstrapAdmins = { wallets: new Set(), emails: new Set() },
  ) {
    this.users = userModel(connection);
    this.identities = identityModel(connection);
  }

  /**
   * Records a proven identity and returns its user. With `linkTo`, the identity must be new or already that
   * user's. Safe under concurrency (the unique index decides) and after a crash between the two writes (the user
   * document is upserted from the identity's userId). A returning identity costs two round trips.
   */
  async signIn(
    kind: IdentityKind,
    subject: string,
    proof: IdentityProof,
    linkTo?: Types.ObjectId,
  ): Promise<UserRecord> {
    const now = new Date(this.clock.now());
    const proven = Object.fromEntries(
      Object.entries(proof).filter(([, value]) => value !== undefined && value !== null),
    ) as StoredProof;
    const removed = Object.fromEntries(
      Object.entries(proof)
        .filter(([, value]) => value === null)
        .map(([field]) => [field, 1]),
    );
    if (linkTo) {
      const owner = await this.identities.findOne({ kind, subject }, { userId: 1 }).lean();
      if (owner && !owner.userId.equals(linkTo)) {
        throw new ConflictError(
          'This identity already belongs to another account',
          'IDENTITY_LINKED_ELSEWHERE',
        );
      }
    }
    const before = await this.identities
      .findOneAndUpdate(
        { kind, subject },
        { $set: { lastUsedAt: now, ...proven }, ...(Object.keys(removed).length ? { $unset: removed } : {}) },
        { returnDocument: 'before' },
      )
      .lean();
    if (!before) return this.createIdentity(kind, subject, proven, now, linkTo);
    const tierInputsChanged =
      before.verifiedAt === null ||
      (proof.ensName !== undefined && (proof.ensName ?? undefined) !== before.ensName);
    if (before.verifiedAt === null)
      await this.identities.updateOne({ _id: before._id }, { $set: { verifiedAt: now } });
    const user = tierInputsChanged ? undefined : await this.users.findById(before.userId).lean();
    return this.finishSignIn(kind, subject, before.userId, user ?? undefined);
  }

  private async createIdentity(
    kind: IdentityKind,
    subject: string,
    proven: StoredProof,
    now: Date,
    linkTo: Types.ObjectId | undefined,
  ): Promise<UserRecord> {
    const userId = linkTo ?? new Types.ObjectId();
    try {
      await this.identities.create({ userId, kind, subject, verifiedAt: now, lastUsedAt: now, ...proven });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return this.signIn(kind, subject, proven, linkTo);
    }
    return this.finishSignIn(kind, subject, userId, undefined);
  }

  /** Ensures the user document exists, applies bootstrap admin, and refreshes the tier when it may have changed. */
  private async finishSignIn(
    kind: IdentityKind,
    subject: string,
    userId: Types.ObjectId,
    current: UserRecord | undefined,
  ): Promise<UserRecord> {
    const admin = this.isBootstrapAdmin(kind, subject);
    if (current && (!admin || current.roles.includes('admin'))) return current;
    await this.users.updateOne(
      { _id: userId },
      { $setOnInsert: { roles: ['player'], tier: 0 } },
      { upsert: true },
    );
    if (admin) await this.users.updateOne({ _id: userId }, { $addToSet: { roles: 'admin' } });
    return this.refreshTier(userId);
  }

  /** Recomputes and stores the user's tier from their identities; returns the updated user. */
  async refreshTier(userId: Types.ObjectId): Promise<UserRecord> {
    const tier = tierOf(await this.identitiesOf(userId));
    const user = await this.users
      .findOneAndUpdate({ _id: userId }, { $set: { tier } }, { returnDocument: 'after' })
      .lean();
    if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
    return user;
  }

  identitiesOf(userId: Types.ObjectId): Promise<IdentityRecord[]> {
    return this.identities.find({ userId }).sort({ createdAt: 1 }).lean();
  }

  findUser(userId: Types.ObjectId): Promise<UserRecord | null> {
    return this.users.findById(userId).lean();
  }

  /** Replaces a user's roles (admin operation); `player` is always kept. */
  async setRoles(userId: Types.ObjectId, roles: UserRole[]): Promise<UserRecord> {
    const next = [...new Set<UserRole>(['player', ...roles])];
    const user = await this.users
      .findOneAndUpdate({ _id: userId }, { $set: { roles: next } }, { returnDocument: 'after' })
      .lean();
    if (!user) throw new NotFoundError('No such user', 'USER_NOT_FOUND');
    return user;
  }

  private isBootstrapAdmin(kind: IdentityKind, subject: string): boolean {
    return (
      (kind === 'wallet' && this.admins.wallets.has(subject)) ||
      (kind === 'email' && this.admins.emails.has(subject))
    );
  }
}
