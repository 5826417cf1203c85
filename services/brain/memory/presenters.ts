import type { MemoryRecord, RecallResult } from './memoryService';

/** A memory as the routes answer it (dates as ISO strings). */
export function presentMemory(memory: MemoryRecord) {
  return {
    id: memory.id,
    subject: memory.subject,
    tier: memory.tier,
    content: memory.content,
    session_id: memory.session_id,
    kind: memory.kind,
    tags: memory.tags,
    importance: memory.importance,
    occurred_at: memory.occurred_at.toISOString(),
    created_at: memory.created_at.toISOString(),
    last_seen: memory.last_seen.toISOString(),
    seen_count: memory.seen_count,
  };
}

/** A recall answer: hits with their score and age, and the session's working memory when asked for. */
export function presentRecall(result: RecallResult) {
  return {
    hits: result.hits.map((hit) => ({
      ...presentMemory(hit.memory),
      score: Math.round(hit.score * 10_000) / 10_000,
      age_seconds: hit.age_seconds,
    })),
    ...(result.working ? { working: result.working.map(presentMemory) } : {}),
  };
}
