/**
 * The memory service as other areas call it (NPCs, companions, the social graph, bots through the routes): a
 * subject's memories in four tiers (SPEC 2.9). This file is the contract; the implementation lives beside it.
 * Subjects are `user:<id>`, `npc:<area>:<id>`, `companion:<user>:<id>`, `bot:<instance>`; callers are trusted to
 * pass the subject they act for (the routes check it, other areas choose it).
 */

/** SPEC 2.9: working (conversation), episodic (7 days), semantic (graph facts), archival (compressed, 90+ days). */
export type MemoryTier = 'working' | 'episodic' | 'semantic' | 'archival';

export const MEMORY_TIERS: readonly MemoryTier[] = ['working', 'episodic', 'semantic', 'archival'];

/** One memory as every reader sees it. */
export interface MemoryRecord {
  id: string;
  subject: string;
  tier: MemoryTier;
  content: string;
  session_id: string | null;
  /** What sort of memory (e.g. `conversation`, `gift`, `quest.completed`); free-form, null when not given. */
  kind: string | null;
  /** Labels callers filter on, e.g. `player:<userId>` for an NPC's memories of one player. */
  tags: string[];
  /** 0-1; weighs recall. Default 0.5. */
  importance: number;
  occurred_at: Date;
  created_at: Date;
  /** When a near-duplicate was last merged into it (equals created_at until then). */
  last_seen: Date;
  /** How many times it was remembered (1 + merged near-duplicates). */
  seen_count: number;
}

export interface RememberInput {
  subject: string;
  content: string;
  /** Default `episodic`. `working` needs `session_id`. */
  tier?: MemoryTier;
  session_id?: string;
  kind?: string;
  tags?: string[];
  importance?: number;
  /** Default: now. */
  occurred_at?: Date;
  /**
   * Which repeats merge into an existing memory: `near` (default) an exact repeat or a near-duplicate, `exact` only
   * the same text. Records written from structured events use `exact`: "A → B: trade" and "A → C: trade" differ
   * only in a name, and a near-duplicate merge would lose the second person.
   */
  duplicates?: 'near' | 'exact';
}

export interface RememberResult {
  memory: MemoryRecord;
  /** True when the content merged into an existing near-duplicate instead of being stored again. */
  merged: boolean;
}

export interface RecallInput {
  subject: string;
  query: string;
  /** Default: every tier. */
  tiers?: MemoryTier[];
  /** With a session, the working tier of that session is returned whole (within its budget). */
  session_id?: string;
  /** Only memories carrying every one of these tags. */
  tags?: string[];
  /** Default 10. */
  limit?: number;
  /** Only what was known at that time (memories that had occurred by then, facts valid then). */
  as_of?: Date;
}

export interface RecallHit {
  memory: MemoryRecord;
  score: number;
  age_seconds: number;
}

export interface RecallResult {
  hits: RecallHit[];
  /** The session's working memory, oldest first, when `session_id` was given. */
  working?: MemoryRecord[];
}

/** What to forget: one memory, a whole session, or everything matching a query. */
export type ForgetTarget = { id: string } | { session_id: string } | { query: string };

export interface ListInput {
  subject: string;
  tier?: MemoryTier;
  session_id?: string;
  tags?: string[];
  cursor?: string;
  /** Default 50. */
  limit?: number;
}

export interface MemoryService {
  remember(input: RememberInput): Promise<RememberResult>;
  recall(input: RecallInput): Promise<RecallResult>;
  /** Removes from every store (MongoDB, vectors, fulltext); answers the ids forgotten. */
  forget(subject: string, target: ForgetTarget): Promise<string[]>;
  /** One memory of `subject`, or null (also when it belongs to another subject). */
  get(subject: string, id: string): Promise<MemoryRecord | null>;
  list(input: ListInput): Promise<{ memories: MemoryRecord[]; next_cursor: string | null }>;
  /** A session's working memory, oldest first (optional: stand-ins without a working tier leave it out). */
  working?(subject: string, sessionId: string): Promise<MemoryRecord[]>;
}
