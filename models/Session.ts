import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

export const SESSION_METHODS = ['wallet', 'email', 'oidc', 'guest'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/**
 * A signed-in session. Only the SHA-256 of the bearer token is stored, so a database leak yields no usable token.
 * Expired sessions are removed by the TTL index on `expiresAt`.
 */
export interface SessionRecord {
  _id: Types.ObjectId;
  tokenHash: string;
  userId: Types.ObjectId;
  method: SessionMethod;
  /** Wallet sessions: the checksummed address that signed in. */
  address?: string;
  expiresAt: Date;
  revokedAt: Date | null;
  createdAt: Date;
}

const sessionSchema = new Schema<SessionRecord>(
  {
    tokenHash: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    method: { type: String, enum: SESSION_METHODS, required: true },
    address: { type: String },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
sessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const sessionModel = (connection: Connection) => modelFor(connection, 'Session', sessionSchema);
