/** One brain-backed area's state as the admin status shows it. */
export interface BrainAreaStatus {
  state: 'up' | 'degraded' | 'down';
  /** Index name → entries (documents, vectors, posts, quests, signatures). */
  indexes: Record<string, number>;
  last_sync: Date | null;
  /** The memory service's last consolidation that succeeded (`brain/memory/memoryStatus.ts`); null elsewhere. */
  last_consolidation: Date | null;
  detail: string | null;
}

/**
 * The port a brain-backed area gives the admin status (the knowledge service, the audit log, memory, social, quests,
 * influencer). A status that throws shows the area as down with the error's message.
 */
export interface BrainStatusSource {
  name: string;
  status(): Promise<BrainAreaStatus>;
}
