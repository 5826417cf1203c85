import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * A one-time code that links a chat or game identity to a web user (`_id`: sha256 of the code; the code itself is
 * never stored). Issued by a signed-in user (`web_user` set: a bot redeems it for the identity that posted it) or
 * by a bot with the service token (`web_user` null: the signed-in user redeems it). Expires through a TTL index.
 */
export interface SocialLinkCodeRecord {
  _id: string;
  platform: string;
  user_id: string;
  web_user: string | null;
  expiresAt: Date;
}

const socialLinkCodeSchema = new Schema<SocialLinkCodeRecord>(
  {
    _id: { type: String, required: true },
    platform: { type: String, required: true },
    user_id: { type: String, required: true },
    web_user: { type: String, default: null },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
socialLinkCodeSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });

/** The `sociallinkcodes` collection on `connection`. */
export const socialLinkCodeModel = (connection: Connection) =>
  modelFor(connection, 'SocialLinkCode', socialLinkCodeSchema);
