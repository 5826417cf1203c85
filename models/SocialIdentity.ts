import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** Platforms of the social graph (SPEC 2.10): the chat platform, the block game and the web platform itself. */
export const SOCIAL_PLATFORMS = ['discord', 'minecraft', 'web'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/**
 * One account on one platform (`_id`: `<platform>:<user_id>`) and the person it belongs to. A person is the set of
 * identities sharing `person`; an identity never linked is its own person (`person` equals its `_id`), a web user's
 * person is `web:<userId>`, and a linked chat or game identity points at the web person it was linked to.
 */
export interface SocialIdentityRecord {
  _id: string;
  platform: SocialPlatform;
  user_id: string;
  person: string;
  display_name: string | null;
  first_seen: Date;
  last_seen: Date;
  /** When it was linked into a web person, and by whom (`user:<id>` or `service`); null when not linked. */
  linked_at: Date | null;
  linked_by: string | null;
  /**
   * Set in the same write that links the identity, cleared when its history has been folded into the new person
   * (services/social/personMerger.ts): a link a crash left half merged is finished by a relink or the recovery pass.
   */
  merge_pending?: boolean;
}

const socialIdentitySchema = new Schema<SocialIdentityRecord>(
  {
    _id: { type: String, required: true },
    platform: { type: String, enum: SOCIAL_PLATFORMS, required: true },
    user_id: { type: String, required: true },
    person: { type: String, required: true },
    display_name: { type: String, default: null },
    first_seen: { type: Date, required: true },
    last_seen: { type: Date, required: true },
    linked_at: { type: Date, default: null },
    linked_by: { type: String, default: null },
    merge_pending: { type: Boolean },
  },
  { versionKey: false },
);
socialIdentitySchema.index({ person: 1 });
socialIdentitySchema.index({ merge_pending: 1 }, { sparse: true });

/** The `socialidentities` collection on `connection`. */
export const socialIdentityModel = (connection: Connection) =>
  modelFor(connection, 'SocialIdentity', socialIdentitySchema);
