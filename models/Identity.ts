import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

export const IDENTITY_KINDS = ['wallet', 'email', 'oidc'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/**
 * One way of signing in, owned by exactly one user. `subject` is the normalised key: a lowercase wallet address,
 * a lowercase email address, or `<issuer>#<sub>` for SSO. The unique (kind, subject) index is what makes an
 * identity impossible to attach to two users.
 */
export interface IdentityRecord {
  _id: Types.ObjectId;
  userId: Types.ObjectId;
  kind: IdentityKind;
  subject: string;
  /** When the identity was proven (signature, email code, SSO login); null while an email awaits verification. */
  verifiedAt: Date | null;
  /** Email identities: argon2id hash of the password. */
  passwordHash?: string;
  /** Wallet identities: ENS name last resolved for the address. */
  ensName?: string;
  /** SSO identities: the email claim, for display. */
  email?: string;
  createdAt: Date;
  updatedAt: Date;
}

const identitySchema = new Schema<IdentityRecord>(
  {
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    kind: { type: String, enum: IDENTITY_KINDS, required: true },
    subject: { type: String, required: true, maxlength: 512 },
    verifiedAt: { type: Date, default: null },
    passwordHash: { type: String },
    ensName: { type: String },
    email: { type: String },
  },
  { timestamps: true },
);
identitySchema.index({ kind: 1, subject: 1 }, { unique: true });

export const identityModel = (connection: Connection) => modelFor(connection, 'Identity', identitySchema);
