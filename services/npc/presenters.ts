import type { NpcTemplate } from '../../rooms/content/world';
import type { MemoryRecord } from '../brain';
import type { NpcRelationship } from './npcBrain';
import type { NpcAnswer } from './npcVoice';
import type { Disposition } from '../../rooms/content/schemas';
import type { NpcAnswerBody, NpcMemoryView, NpcRelationshipBody } from './schemas';

/** An NPC as responses name it. */
export function presentNpc(npc: NpcTemplate): { ref: string; name: string } {
  return { ref: npc.ref, name: npc.name };
}

/** One of an NPC's memories. */
export function presentNpcMemory(memory: MemoryRecord): NpcMemoryView {
  const player = memory.tags.find((tag) => tag.startsWith('player:'));
  return {
    id: memory.id,
    player_id: player ? player.slice('player:'.length) : null,
    content: memory.content,
    kind: memory.kind,
    tags: memory.tags,
    importance: memory.importance,
    occurred_at: memory.occurred_at.toISOString(),
    seen_count: memory.seen_count,
  };
}

/** A page of an NPC's memories. */
export function presentNpcMemories(
  npc: NpcTemplate,
  page: { memories: MemoryRecord[]; next_cursor: string | null },
) {
  return {
    npc: presentNpc(npc),
    memories: page.memories.map(presentNpcMemory),
    next_cursor: page.next_cursor,
  };
}

/** An NPC's answer. */
export function presentNpcAnswer(
  npc: NpcTemplate,
  answer: NpcAnswer & { disposition: Disposition },
): NpcAnswerBody {
  return {
    npc: presentNpc(npc),
    disposition: answer.disposition,
    answer: answer.answer,
    citations: answer.citations,
  };
}

/** The caller's standing with an NPC. */
export function presentRelationship(relationship: NpcRelationship): NpcRelationshipBody {
  return {
    npc: presentNpc(relationship.npc),
    score: relationship.score,
    disposition: relationship.disposition,
    reasons: relationship.reasons.map(presentNpcMemory),
  };
}
