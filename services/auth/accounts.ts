import { Types, type Connection } from 'mongoose';
import { identityModel, type IdentityKind, type IdentityRecord } from '../../models/Identity';
import { userModel, type UserRecord, type UserRole } from '../../models/User';
import type { Clock } from '../../platform/clock';
import { authError } from './errors';
import { findOneDocument } from './documentReads';
import { tierOf } from '../../access/tiers';

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

/** The proof's values to store (null and undefined dropped). */
function storedFields(proof: IdentityProof): StoredProof {
  return Object.fromEntries(
    Object.entries(proof).filter(([, value]) => value !== undefined && value !== null),
  ) as StoredProof;
}

/** The update that brings a recorded identity up to a new proof (verified now), or undefined when none is needed. */
function identityChanges(existing: IdentityRecord, proof: IdentityProof, now: Date) {
  const $set: Partial<IdentityRecord> = {};
  const $unset: Record<string, 1> = {};
  if (existing.verifiedAt === null) $set.verifiedAt = now;
  for (const [field, value] of Object.entries(proof) as [keyof IdentityProof, string | null | undefined][]) {
    if (value === null && existing[field] !== undefined) $unset[field] = 1;
    else if (typeof value === 'string' && value !== existing[field]) $set[field] = value;
  }
  if (Object.keys($set).length === 0 && Object.keys($unset).length === 0) return undefined;
  return Object.keys($unset).length > 0 ? { $set, $unset } : { $set };
}

/** A new identity linked to an account that already existed (a signed-in user proving another wallet or email). */
export interface LinkedIdentity {
  userId: Types.ObjectId;
  kind: IdentityKind;
  subject: string;
}

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
  private readonly linkListeners = new Set<(linked: LinkedIdentity) => void>();

  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly admins: BootstrapAdmins = { wallets: new Set(), emails: new Set() },
  ) {
    this.users = userModel(connection);
    this.identities = identityModel(connection);
  }

  /**
   * Records a proven identity and returns its user's id. With `linkTo`, the identity must be new or already that
   * user's (409 IDENTITY_LINKED_ELSEWHERE otherwise). A returning identity whose recorded proof is unchanged costs
   * one indexed read: this is on every sign-in's path. Concurrent first sign-ins are settled by the unique index.
   * The user document is written before an identity is marked verified, so a verified identity always has a user.
   */
  async proveIdentity(
    kind: IdentityKind,
    subject: string,
    proof: IdentityProof,
    linkTo?: Types.ObjectId,
  ): Promise<Types.ObjectId> {
    // One find command: mongoose's query layer, and the driver's cursor, cost more than the lookup itself here.
    const existing = await findOneDocument<IdentityRecord>(this.identities, { kind, subject });
    if (!existing) return this.createIdentity(kind, subject, proof, linkTo);
    if (linkTo && !existing.userId.equals(linkTo)) {
      throw authError('IDENTITY_LINKED_ELSEWHERE', 'This identity already belongs to another account');
    }
    const changes = identityChanges(existing, proof, new Date(this.clock.now()));
    if (changes) {
      await this.ensureUser(existing.userId);
      await this.identities.updateOne({ _id: existing._id }, changes);
      await this.refreshTier(existing.userId);
    }
    if (this.isBootstrapAdmin(kind, subject)) await this.grantAdmin(existing.userId);
    return existing.userId;
  }

  /** Like `proveIdentity`, returning the whole user. */
  async signIn(
    kind: IdentityKind,
    subject: string,
    proof: IdentityProof,
    linkTo?: Types.ObjectId,
  ): Promise<UserRecord> {
    const user = await this.findUser(await this.proveIdentity(kind, subject, proof, linkTo));
    if (!user) throw authError('USER_NOT_FOUND', 'No such user');
    return user;
  }

  private async createIdentity(
    kind: IdentityKind,
    subject: string,
    proof: IdentityProof,
    linkTo: Types.ObjectId | undefined,
  ): Promise<Types.ObjectId> {
    const userId = linkTo ?? new Types.ObjectId();
    await this.ensureUser(userId);
    try {
      await this.identities.create({
        userId,
        kind,
        subject,
        verifiedAt: new Date(this.clock.now()),
        ...storedFields(proof),
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Someone else recorded it first: drop the user made for it, and sign in to the identity that won.
      if (!linkTo) await this.users.deleteOne({ _id: userId });
      return this.proveIdentity(kind, subject, proof, linkTo);
    }
    if (this.isBootstrapAdmin(kind, subject)) await this.grantAdmin(userId);
    await this.refreshTier(userId);
    if (linkTo) this.announceLink({ userId, kind, subject });
    return userId;
  }

  /** Calls `listener` whenever a new identity is linked to an existing account (security alerts); returns the unsubscribe. */
  onIdentityLinked(listener: (linked: LinkedIdentity) => void): () => void {
    this.linkListeners.add(listener);
    return () => this.linkListeners.delete(listener);
  }

  private announceLink(linked: LinkedIdentity): void {
    for (const listener of this.linkListeners) {
      try {
        listener(linked);
      } catch {
        // A listener's failure is its own (it logs); signing in goes on.
      }
    }
  }

  private async ensureUser(userId: Types.ObjectId): Promise<void> {
    await this.users.updateOne(
      { _id: userId },
      { $setOnInsert: { roles: ['player'], tier: 0 } },
      { upsert: true },
    );
  }

  private async grantAdmin(userId: Types.ObjectId): Promise<void> {
    await this.users.updateOne({ _id: userId }, { $addToSet: { roles: 'admin' } });
  }

  /** Recomputes and stores the user's tier from their identities; returns the updated user. */
  async refreshTier(userId: Types.ObjectId): Promise<UserRecord> {
    const tier = tierOf(await this.identitiesOf(userId));
    const user = await this.users
      .findOneAndUpdate({ _id: userId }, { $set: { tier } }, { returnDocument: 'after' })
      .lean();
    if (!user) throw authError('USER_NOT_FOUND', 'No such user');
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
    if (!user) throw authError('USER_NOT_FOUND', 'No such user');
    return user;
  }

  private isBootstrapAdmin(kind: IdentityKind, subject: string): boolean {
    return (
      (kind === 'wallet' && this.admins.wallets.has(subject)) ||
      (kind === 'email' && this.admins.emails.has(subject))
    );
  }
}
