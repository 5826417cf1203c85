import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * Ranked roles, lowest first: every user is a player; operators and admins are granted by an admin. A higher role
 * passes the guards of the lower ones.
 */
export const RANKED_ROLES = ['player', 'operator', 'admin'] as const;
/**
 * Orthogonal grants an admin gives beside the rank (`creator`: the influencer brain). A grant passes only its own
 * guard: an admin is not a creator until granted, and a creator ranks as whatever else they hold.
 */
export const GRANTED_ROLES = ['creator'] as const;
/** Every role a user's `roles` may hold: the ranked roles and the orthogonal grants. */
export const USER_ROLES = [...RANKED_ROLES, ...GRANTED_ROLES] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Whether `roles` pass a guard of `role`: a ranked role or one above it, or exactly the grant. */
export function holdsRole(roles: readonly string[], role: UserRole): boolean {
  const rank = (RANKED_ROLES as readonly string[]).indexOf(role);
  if (rank === -1) return roles.includes(role);
  return roles.some((held) => (RANKED_ROLES as readonly string[]).indexOf(held) >= rank);
}

/** A platform account. Sign-in identities (wallet, email, SSO) live in `Identity`, linked by `userId`. */
export interface UserRecord {
  _id: Types.ObjectId;
  displayName?: string;
  /** The display name lowercased: unique, so names are unique case-insensitively. */
  displayNameKey?: string;
  /** Created by guest sign-in (tier 0); removed by the guest retention job unless an identity was linked. */
  guest?: boolean;
  roles: UserRole[];
  /** Identity tier 0-4, recomputed whenever the user's identities change (see access/tiers.ts). */
  tier: number;
  createdAt: Date;
  updatedAt: Date;
}

const userSchema = new Schema<UserRecord>(
  {
    displayName: { type: String, trim: true, maxlength: 64 },
    displayNameKey: { type: String, unique: true, sparse: true },
    guest: { type: Boolean },
    roles: { type: [String], enum: USER_ROLES, default: ['player'] },
    tier: { type: Number, min: 0, max: 4, default: 0 },
  },
  { timestamps: true },
);

export const userModel = (connection: Connection) => modelFor(connection, 'User', userSchema);
