import { Schema, type Connection } from 'mongoose';
import type { IndexName } from './corpusRecords';
import { modelFor } from './modelFor';

/**
 * A summary node of an index's RAPTOR tree (collection `brainraptornodes`): its level (1 = summaries of
 * chunks, up to 4), parent, children (chunk ids at level 1, node ids above) and summary text. The leaves are
 * the chunks themselves (`brainchunks`); the summary's vector is in the Qdrant collection
 * `<BRAIN_QDRANT_COLLECTION>_raptor_v<n>`, in the tree's embedding space (`model`).
 */
export interface BrainRaptorNodeRecord {
  _id: string;
  index: IndexName;
  level: number;
  parent: string | null;
  children: string[];
  summary: string;
  model: string;
  updated_at: Date;
}

const brainRaptorNodeSchema = new Schema<BrainRaptorNodeRecord>(
  {
    _id: { type: String, required: true },
    index: { type: String, required: true },
    level: { type: Number, required: true, min: 1 },
    parent: { type: String, default: null },
    children: { type: [String], default: [] },
    summary: { type: String, required: true },
    model: { type: String, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false },
);
brainRaptorNodeSchema.index({ index: 1, level: 1 });

/** The BrainRaptorNode model on `connection`. */
export const brainRaptorNodeModel = (connection: Connection) =>
  modelFor(connection, 'BrainRaptorNode', brainRaptorNodeSchema);
