import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * One change of an edge's trust (the trust history): an interaction, or a mark set or cleared. `_id` is the
 * cause's id and the edge's, so a re-run batch writes each change once.
 */
export interface SocialTrustChangeRecord {
  _id: string;
  edge: string;
  observer: string;
  subject: string;
  at: Date;
  /** `interaction:<kind>`, `mark:<fren|foe|block>`, `unmark:<fren|foe|block>`, `link:merge`. */
  cause: string;
  applied: number;
  before: number;
  after: number;
}

const socialTrustChangeSchema = new Schema<SocialTrustChangeRecord>(
  {
    _id: { type: String, required: true },
    edge: { type: String, required: true },
    observer: { type: String, required: true },
    subject: { type: String, required: true },
    at: { type: Date, required: true },
    cause: { type: String, required: true },
    applied: { type: Number, required: true },
    before: { type: Number, required: true },
    after: { type: Number, required: true },
  },
  { versionKey: false },
);
socialTrustChangeSchema.index({ edge: 1, at: -1 });

/** The `socialtrustchanges` collection on `connection`. */
export const socialTrustChangeModel = (connection: Connection) =>
  modelFor(connection, 'SocialTrustChange', socialTrustChangeSchema);
