import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** Where an interaction came from: the HTTP route, a bot's sync batch of that platform, or the world's events. */
export type InteractionSource = 'api' | 'discord' | 'minecraft' | 'world';

/** What an interaction did to trust: whose trust in whom moved, by how much, and the score after. */
export interface InteractionEffect {
  observer: string;
  subject: string;
  applied: number;
  trust_after: number;
  capped: boolean;
}

/**
 * One recorded interaction (`_id`: the caller's idempotency scope and key, or `<batch>#<index>` for a sync event).
 * `actor`/`target` are identity keys and `actorPerson`/`targetPerson` the persons they belonged to when recorded
 * (moved along when identities are linked). `effect` is null for interactions that move no trust. Written once, after its trust effect was applied.
 */
export interface SocialInteractionRecord {
  _id: string;
  source: InteractionSource;
  actor: string;
  actorPerson: string;
  target: string | null;
  targetPerson: string | null;
  kind: string;
  content: string | null;
  sentiment: number | null;
  hostile: boolean;
  occurredAt: Date;
  recordedAt: Date;
  requestHash: string;
  /** The topic terms of its content (services/social/topics.ts): what the actor talks about. */
  terms: string[];
  effect: InteractionEffect | null;
}

const socialInteractionSchema = new Schema<SocialInteractionRecord>(
  {
    _id: { type: String, required: true },
    source: { type: String, enum: ['api', 'discord', 'minecraft', 'world'], required: true },
    actor: { type: String, required: true },
    actorPerson: { type: String, required: true },
    target: { type: String, default: null },
    targetPerson: { type: String, default: null },
    kind: { type: String, required: true },
    content: { type: String, default: null },
    sentiment: { type: Number, default: null },
    hostile: { type: Boolean, required: true },
    occurredAt: { type: Date, required: true },
    recordedAt: { type: Date, required: true },
    requestHash: { type: String, required: true },
    terms: { type: [String], default: [] },
    effect: { type: Schema.Types.Mixed, default: null },
  },
  { versionKey: false, minimize: false },
);
socialInteractionSchema.index({ actorPerson: 1, recordedAt: -1 });
socialInteractionSchema.index({ targetPerson: 1, recordedAt: -1 });
socialInteractionSchema.index({ recordedAt: -1 });
socialInteractionSchema.index({ terms: 1, recordedAt: -1 });

/** The `socialinteractions` collection on `connection`. */
export const socialInteractionModel = (connection: Connection) =>
  modelFor(connection, 'SocialInteraction', socialInteractionSchema);
