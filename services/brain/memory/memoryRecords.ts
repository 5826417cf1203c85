import { createHash } from 'node:crypto';
import type { MemoryDocument } from '../../../models/Memory';
import type { MemoryRecord } from './memoryService';

/** The stored form as every reader sees it. */
export function recordOf(doc: MemoryDocument): MemoryRecord {
  return {
    id: doc._id,
    subject: doc.subject,
    tier: doc.tier,
    content: doc.content,
    session_id: doc.session_id,
    kind: doc.kind,
    tags: doc.tags,
    importance: doc.importance,
    occurred_at: doc.occurred_at,
    created_at: doc.created_at,
    last_seen: doc.last_seen,
    seen_count: doc.seen_count,
  };
}

/** sha256 of the text with case and whitespace normalised: exact repeats in one indexed lookup. */
export function contentHash(text: string): string {
  return createHash('sha256')
    .update(text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim())
    .digest('hex');
}
