import { Types, type Connection } from 'mongoose';
import { sessionModel, type SessionMethod, type SessionRecord } from '../../models/Session';
import { userModel, type UserRecord } from '../../models/User';
import type { Clock } from '../../platform/clock';
import { findOneDocument } from './documentReads';
import type { Principal } from '../../access/principal';
import { hashSecret, newSessionToken } from './tokens';

/** A newly issued session and the only copy of its bearer token. */
export interface IssuedSession {
  token: string;
  session: SessionRecord;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * Opaque bearer-token sessions stored hashed in MongoDB; expiring (TTL index) and revocable. A session is written on
 * every sign-in and read on every authenticated request, so both go to the driver directly: mongoose's document
 * and casting layers cost as much CPU as the operation itself (bench/authVerify.ts). The records are built here in
 * full, with the fields the schema declares.
 */
export class Sessions {
  private readonly sessions;
  private readonly users;

  /**
   * `onIssued` hears of every session opened (the sign-in audit); it runs after the session is stored and must not
   * throw.
   */
  constructor(
    connection: Connection,
    private readonly clock: Clock,
    private readonly onIssued?: (session: SessionRecord) => void,
  ) {
    this.sessions = sessionModel(connection);
    this.users = userModel(connection);
  }

  /** Opens a session of `ttlSeconds` for `userId` (wallet sessions record the `address`). */
  async issue(
    userId: Types.ObjectId,
    method: SessionMethod,
    ttlSeconds: number,
    address?: string,
  ): Promise<IssuedSession> {
    const token = newSessionToken();
    const now = this.clock.now();
    const issuedAt = new Date(now);
    const expiresAt = new Date(now + ttlSeconds * 1000);
    const session: SessionRecord = {
      _id: new Types.ObjectId(),
      tokenHash: hashSecret(token),
      userId,
      method,
      ...(address === undefined ? {} : { address }),
      expiresAt,
      revokedAt: null,
      createdAt: issuedAt,
    };
    await this.sessions.collection.insertOne(session);
    this.onIssued?.(session);
    return { token, session, issuedAt, expiresAt };
  }

  /** The principal behind a bearer token, or null when the token is unknown, expired or revoked. */
  async authenticate(token: string): Promise<Extract<Principal, { kind: 'user' }> | null> {
    const session = await findOneDocument<SessionRecord>(this.sessions, {
      tokenHash: hashSecret(token),
      revokedAt: null,
      expiresAt: { $gt: new Date(this.clock.now()) },
    });
    if (!session) return null;
    const user = await findOneDocument<UserRecord>(this.users, { _id: session.userId });
    if (!user) return null;
    return {
      kind: 'user',
      userId: user._id,
      sessionId: session._id,
      method: session.method,
      roles: user.roles,
      tier: user.tier,
      address: session.address,
    };
  }

  /** Revokes one session; later requests with its token get 401. */
  async revoke(sessionId: Types.ObjectId): Promise<void> {
    await this.sessions.updateOne(
      { _id: sessionId, revokedAt: null },
      { $set: { revokedAt: new Date(this.clock.now()) } },
    );
  }
}
