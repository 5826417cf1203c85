import type { CompanionTemplate, World } from '../../rooms/content/world';
import type { MindReply, MindRequest } from '../../rooms/minds';
import type { MemoryService, RecallHit } from '../brain';
import { agoPhrase } from '../npc';
import { companionSubject } from './companionMemoryRecorder';

/** A companion's answer and the memories it drew on. */
export interface CompanionAnswer {
  answer: string;
  citations: Array<{ memory_id: string; excerpt: string }>;
}

/**
 * A companion answers from its own memories of what it shared with its player ("where did we find the crystal?"):
 * offline, the best-matching memories retold with when they happened, in the companion's manner (its species).
 */
export class CompanionVoice {
  constructor(
    private readonly world: World,
    private readonly memory: MemoryService,
  ) {}

  /** The world's `ask <companion> <question>` (presence rules were applied by the world). */
  async reply(request: Extract<MindRequest, { kind: 'companion.ask' }>): Promise<MindReply | null> {
    const template = this.world.companions.get(request.companion);
    if (!template) return null;
    const { answer, citations } = await this.answer(request.userId, template, request.question);
    return { text: answer, citations: citations.map((c) => `memory:${c.memory_id}`) };
  }

  /** Answers `question` from the companion's memories of `userId`. */
  async answer(userId: string, template: CompanionTemplate, question: string): Promise<CompanionAnswer> {
    const { hits } = await this.memory.recall({
      subject: companionSubject(userId, template.ref),
      query: question,
      limit: 2,
    });
    if (hits.length === 0) {
      return {
        answer: `${template.name} tilts its head. It does not remember anything like that.`,
        citations: [],
      };
    }
    const told = hits.map((hit) => retell(hit)).join(' And ');
    return {
      answer: told,
      citations: hits.map((hit) => ({ memory_id: hit.memory.id, excerpt: hit.memory.content })),
    };
  }
}

/** "We found a glowing crystal in the Crystal Grotto, a few days ago." */
function retell(hit: RecallHit): string {
  const sentence = hit.memory.content.replace(/[.!]$/, '');
  return `${sentence}, ${agoPhrase(hit.age_seconds)}.`;
}
