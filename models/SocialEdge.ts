import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** A mark one person set on another: when, and why (free text, optional). */
export interface SocialMarkRecord {
  at: Date;
  reason: string | null;
}

/**
 * One directed edge of the social graph (`_id`: `<from>><to>`, person ids): how much `from` trusts `to`, the
 * marks `from` set on `to`, and the day's counters the trust rules need (services/social/trust). `applied` holds the
 * ids of the last interactions applied, so a re-run batch never applies one twice; `version` guards every write.
 */
export interface SocialEdgeRecord {
  _id: string;
  from: string;
  to: string;
  base: number;
  decayedAt: number;
  day: number;
  dayGain: number;
  dayLoss: number;
  repeats: Record<string, number>;
  marks: { fren?: SocialMarkRecord | null; foe?: SocialMarkRecord | null; block?: SocialMarkRecord | null };
  interactions: number;
  /** Last time `from` reported `to` (threat: reporters in 30 days). */
  reportedAt: Date | null;
  applied: string[];
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const markSchema = new Schema<SocialMarkRecord>(
  { at: { type: Date, required: true }, reason: { type: String, default: null } },
  { _id: false },
);

const socialEdgeSchema = new Schema<SocialEdgeRecord>(
  {
    _id: { type: String, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    base: { type: Number, required: true },
    decayedAt: { type: Number, required: true },
    day: { type: Number, required: true },
    dayGain: { type: Number, required: true },
    dayLoss: { type: Number, required: true },
    repeats: { type: Schema.Types.Mixed, default: {} },
    marks: {
      fren: { type: markSchema, default: null },
      foe: { type: markSchema, default: null },
      block: { type: markSchema, default: null },
    },
    interactions: { type: Number, required: true },
    reportedAt: { type: Date, default: null },
    applied: { type: [String], default: [] },
    version: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);
socialEdgeSchema.index({ from: 1 });
socialEdgeSchema.index({ to: 1 });

/** The `socialedges` collection on `connection`. */
export const socialEdgeModel = (connection: Connection) =>
  modelFor(connection, 'SocialEdge', socialEdgeSchema);
