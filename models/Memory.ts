import { Schema, type Connection } from 'mongoose';
import { modelFor } from './modelFor';

/** The tiers stored in MongoDB: working memory lives in Redis (or the process), semantic facts in the graph. */
export type StoredMemoryTier = 'episodic' | 'semantic' | 'archival';

/**
 * One remembered item of a subject (collection `memories`). `content_hash` finds exact repeats in one lookup of
 * the memory service's in-process index (loaded from these rows); near-duplicates merge into the existing row (`seen_count`, `last_seen`). `consolidated_at` marks what the nightly
 * consolidation has processed; `summarizes` lists the memories an archival summary replaced.
 */
export interface MemoryDocument {
  _id: string;
  subject: string;
  tier: StoredMemoryTier;
  content: string;
  content_hash: string;
  session_id: string | null;
  kind: string | null;
  tags: string[];
  importance: number;
  occurred_at: Date;
  created_at: Date;
  last_seen: Date;
  seen_count: number;
  /** The embedding model whose space holds its vector (null when it has none). */
  vector_model: string | null;
  consolidated_at: Date | null;
  summarizes: string[];
}

const memorySchema = new Schema<MemoryDocument>(
  {
    _id: { type: String, required: true },
    subject: { type: String, required: true },
    tier: { type: String, required: true },
    content: { type: String, required: true },
    content_hash: { type: String, required: true },
    session_id: { type: String, default: null },
    kind: { type: String, default: null },
    tags: { type: [String], default: [] },
    importance: { type: Number, required: true, min: 0, max: 1 },
    occurred_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
    last_seen: { type: Date, required: true },
    seen_count: { type: Number, required: true, min: 1 },
    vector_model: { type: String, default: null },
    consolidated_at: { type: Date, default: null },
    summarizes: { type: [String], default: [] },
  },
  { versionKey: false },
);
// Listing a subject's memories newest first (by tier, by session, by tag: an NPC's memories of one player),
// consolidation scans. Exact repeats are found in the process's index, so `{subject, content_hash}` is no longer
// created (each memory paid an index entry no query read); databases made before keep it, unused and harmless.
memorySchema.index({ subject: 1, _id: -1 });
memorySchema.index({ subject: 1, tags: 1, _id: -1 });
memorySchema.index({ subject: 1, tier: 1, _id: -1 });
memorySchema.index({ subject: 1, session_id: 1 });
memorySchema.index({ tier: 1, consolidated_at: 1 });
memorySchema.index({ tier: 1, occurred_at: 1 });

/** The Memory model on `connection`. */
export const memoryModel = (connection: Connection) => modelFor(connection, 'Memory', memorySchema);
