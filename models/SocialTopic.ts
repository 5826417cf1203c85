import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/**
 * How much one person talks about one term (`_id`: `<person>|<term>`; terms are the brain's stemmed index terms).
 * Read both ways: a person's top topics, and the people who talk about a term (search).
 */
export interface SocialTopicRecord {
  _id: string;
  person: string;
  term: string;
  weight: number;
  lastAt: Date;
}

const socialTopicSchema = new Schema<SocialTopicRecord>(
  {
    _id: { type: String, required: true },
    person: { type: String, required: true },
    term: { type: String, required: true },
    weight: { type: Number, required: true },
    lastAt: { type: Date, required: true },
  },
  { versionKey: false },
);
socialTopicSchema.index({ person: 1, weight: -1 });
socialTopicSchema.index({ term: 1, weight: -1 });

/** The `socialtopics` collection on `connection`. */
export const socialTopicModel = (connection: Connection) =>
  modelFor(connection, 'SocialTopic', socialTopicSchema);
