import type { Clock } from '../../platform/clock';
import type { Disposition } from '../../rooms/content/schemas';
import type { NpcTemplate, World } from '../../rooms/content/world';
import type { MindReply, MindRequest } from '../../rooms/minds';
import type { MemoryRecord, MemoryService } from '../brain';
import { agoPhrase, npcSubject, playerTag } from './npcSubjects';
import type { WorldLore } from './worldLore';

/** How an NPC closes a recollection, by disposition. */
const CLOSINGS: Record<Disposition, { warm: string; cold: string }> = {
  friendly: { warm: 'I have not forgotten it.', cold: 'I have chosen to forgive it.' },
  neutral: { warm: 'I remember it.', cold: 'I remember that too.' },
  wary: { warm: 'Not that it changes much.', cold: 'I have not forgotten that.' },
};

/** How an NPC begins an answer, by disposition. */
const OPENINGS: Record<Disposition, string> = {
  friendly: 'Gladly.',
  neutral: 'Hm.',
  wary: 'If you must know.',
};

/** Memory kinds an NPC brings up unprompted (small talk is not worth repeating). */
const NOTABLE = new Set(['gift', 'quest.completed', 'attack.seen', 'quest.given', 'dialogue', 'kill.seen']);

/** A citation of what an answer drew on. */
export interface Citation {
  source: 'memory' | 'lore' | 'quest';
  ref: string;
  excerpt: string;
}

/** An NPC's answer to a question, in character, with what it drew on. */
export interface NpcAnswer {
  answer: string;
  citations: Citation[];
}

/**
 * What an NPC says beyond its fixed lines, composed offline from the world data, its memories of THIS player only
 * (recall is always filtered by `player:<userId>`) and the world's lore. No LLM: the words are the NPC's data,
 * its remembered sentences and lore excerpts, joined by templates chosen by disposition.
 */
/** How much of a player's history with an NPC `talk` looks through for something notable. */
const RECENT_MEMORIES = 50;

export class NpcVoice {
  constructor(
    private readonly world: World,
    private readonly memory: MemoryService,
    private readonly lore: WorldLore,
    private readonly clock: Clock,
  ) {}

  /** `talk`: one recollection of the player's most notable history with the NPC, plus how their quest goes. */
  async recollect(request: Extract<MindRequest, { kind: 'npc.talk' }>): Promise<MindReply | null> {
    const npc = this.world.npcs.get(request.npc);
    if (!npc) return null;
    // The player's history with this NPC, newest first: a listing, not a search, so what it remembers never
    // depends on how well a bag of words scores against it.
    const { memories } = await this.memory.list({
      subject: npcSubject(npc),
      tags: [playerTag(request.userId)],
      limit: RECENT_MEMORIES,
    });
    const notable = memories.find((memory) => NOTABLE.has(memory.kind ?? ''));
    const best = notable ? { memory: notable, age_seconds: 0 } : undefined;
    const parts: string[] = [];
    const citations: string[] = [];
    if (best) {
      parts.push(this.recollection(best.memory, request.disposition, best.age_seconds));
      citations.push(`memory:${best.memory.id}`);
    }
    const active = request.activeQuests.map((ref) => this.world.quests.get(ref)).find(Boolean);
    if (active && request.disposition !== 'wary') {
      parts.push(`How goes "${active.name}"?`);
      citations.push(`quest:${active.ref}`);
    }
    return parts.length > 0 ? { text: parts.join(' '), citations } : null;
  }

  /** `POST /npc/brain/{npc}/ask`: answers from the world's lore and the NPC's own memories of the asker. */
  async answer(
    npc: NpcTemplate,
    userId: string,
    disposition: Disposition,
    question: string,
  ): Promise<NpcAnswer> {
    const [lore, recalled] = await Promise.all([
      Promise.resolve(this.lore.search(question, 2, npc.ref)),
      this.memory.recall({ subject: npcSubject(npc), query: question, tags: [playerTag(userId)], limit: 2 }),
    ]);
    const citations: Citation[] = [];
    const parts: string[] = [OPENINGS[disposition]];
    const known = lore[0];
    if (known) {
      const excerpt = firstSentences(known.passage.text, 2);
      parts.push(known.passage.ref.startsWith('topic:') ? excerpt : `${known.passage.title}: ${excerpt}`);
      citations.push({ source: 'lore', ref: known.passage.ref, excerpt });
    }
    const remembered = recalled.hits[0];
    if (remembered) {
      const said = stripEffect(remembered.memory.content);
      parts.push(`And I remember this: ${said.charAt(0).toLowerCase()}${said.slice(1)}`);
      citations.push({ source: 'memory', ref: remembered.memory.id, excerpt: remembered.memory.content });
    }
    if (citations.length === 0) parts.push('I know nothing of that.');
    return { answer: parts.join(' '), citations };
  }

  private recollection(memory: MemoryRecord, disposition: Disposition, ageSeconds: number): string {
    const said = stripEffect(memory.content).replace(/[.!]$/, '');
    const cold = memory.tags.some((tag) => tag.startsWith('delta:-')) || memory.kind === 'attack.seen';
    const closing = CLOSINGS[disposition][cold ? 'cold' : 'warm'];
    const when = agoPhrase(ageSeconds || (this.clock.now() - memory.occurred_at.getTime()) / 1000);
    return `${said} ${when} — ${closing}`;
  }
}

/** A memory's sentence without its bookkeeping suffix ("(+2, now friendly)"). */
function stripEffect(content: string): string {
  return content.replace(/\s*\([+-]?\d+, now \w+\)$/, '');
}

/** The first `count` sentences of a text. */
function firstSentences(text: string, count: number): string {
  const sentences = text.match(/[^.!?]+[.!?]+/g) ?? [text];
  return sentences.slice(0, count).join('').trim();
}
