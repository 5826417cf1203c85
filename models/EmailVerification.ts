import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * A pending email verification: the SHA-256 of the single-use code sent by mail, for one email identity. Used or
 * expired records are removed by the TTL index.
 */
export interface EmailVerificationRecord {
  _id: Types.ObjectId;
  codeHash: string;
  identityId: Types.ObjectId;
  expiresAt: Date;
  createdAt: Date;
}

const emailVerificationSchema = new Schema<EmailVerificationRecord>(
  {
    codeHash: { type: String, required: true, unique: true },
    identityId: { type: Schema.Types.ObjectId, required: true, index: true },
    expiresAt: { type: Date, required: true },
  },
  { timestamps: { createdAt: true, updatedAt: false } },
);
emailVerificationSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

export const emailVerificationModel = (connection: Connection) =>
  modelFor(connection, 'EmailVerification', emailVerificationSchema);
