import type { CompanionTemplate } from '../../rooms/content/world';
import type { MemoryRecord } from '../brain';
import type { CompanionState } from './companionBrain';
import type { CompanionAnswer } from './companionVoice';
import type { CompanionAnswerBody, CompanionMemoryView, CompanionView } from './schemas';

/** One companion memory. */
export function presentCompanionMemory(memory: MemoryRecord): CompanionMemoryView {
  return {
    id: memory.id,
    content: memory.content,
    kind: memory.kind,
    tags: memory.tags,
    occurred_at: memory.occurred_at.toISOString(),
    seen_count: memory.seen_count,
  };
}

/** The caller's companion: bond, presence, recent memories; never purchasable. */
export function presentCompanion(state: CompanionState): CompanionView {
  return {
    ref: state.template.ref,
    name: state.template.name,
    species: state.template.species,
    bond: state.bond,
    bond_points: state.bondPoints,
    presence: state.presence,
    is_purchasable: false,
    recent_memories: state.recent.map(presentCompanionMemory),
  };
}

/** A companion's answer. */
export function presentCompanionAnswer(
  answer: CompanionAnswer & { template: CompanionTemplate },
): CompanionAnswerBody {
  return {
    companion: { ref: answer.template.ref, name: answer.template.name },
    answer: answer.answer,
    citations: answer.citations,
  };
}
