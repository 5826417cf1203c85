import type { Connection, Types } from 'mongoose';
import { sessionModel, type SessionMethod, type SessionRecord } from '../../models/Session';
import { userModel } from '../../models/User';
import type { Clock } from '../../platform/clock';
import type { Principal } from './principal';
import { hashSecret, newSessionToken } from './tokens';

/** A newly issued session and the only copy of its bearer token. */
export interface IssuedSession {
  token: string;
  session: SessionRecord;
  issuedAt: Date;
  expiresAt: Date;
}

/** Opaque bearer-token sessions stored hashed in MongoDB; expiring (TTL index) and revocable. */
export class Sessions {
  private readonly sessions;
  private readonly users;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
  ) {
    this.sessions = sessionModel(connection);
    this.users = userModel(connection);
  }

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
    const created = await this.sessions.create({
      tokenHash: hashSecret(token),
      userId,
      method,
      address,
      expiresAt,
      revokedAt: null,
    });
    return { token, session: created.toObject(), issuedAt, expiresAt };
  }

  /** The principal behind a bearer token, or null when the token is unknown, expired or revoked. */
  async authenticate(token: string): Promise<Extract<Principal, { kind: 'user' }> | null> {
    const session = await this.sessions
      .findOne({
        tokenHash: hashSecret(token),
        revokedAt: null,
        expiresAt: { $gt: new Date(this.clock.now()) },
      })
      .lean();
    if (!session) return null;
    const user = await this.users.findById(session.userId).lean();
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
