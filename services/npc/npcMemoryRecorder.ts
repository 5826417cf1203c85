import type { Logger } from 'pino';
import type { NpcTemplate, World } from '../../rooms/content/world';
import type { WorldEvent, WorldEventBus } from '../../rooms/worldEvents';
import type { MemoryService, RememberInput } from '../brain';
import { DISPOSITION_TAG, npcSubject, playerTag } from './npcSubjects';

/** What a disposition cause becomes in the NPC's memory: its kind, importance and how it says it. */
const DISPOSITION_MEMORIES: Record<
  string,
  { kind: string; importance: number; says: (about: string) => string }
> = {
  gift: { kind: 'gift', importance: 0.7, says: (item) => `You gave me ${item}.` },
  likedGift: { kind: 'gift', importance: 0.85, says: (item) => `You brought me ${item}, just what I like.` },
  questCompleted: {
    kind: 'quest.completed',
    importance: 0.9,
    says: (quest) => `You completed "${quest}" for me.`,
  },
  attackedProtected: {
    kind: 'attack.seen',
    importance: 0.8,
    says: (creature) => `You attacked ${creature}, which I protect.`,
  },
  dialogue: { kind: 'dialogue', importance: 0.5, says: (topic) => `You asked me: "${topic}"` },
};

/**
 * The world's NPCs remember what happens between them and each player: subscribes to the world event bus and writes
 * episodic memories to the NPC's subject (`npc:<area>:<id>`), tagged `player:<userId>` so histories never mix.
 * Recorded: conversations, gifts, quests given and completed, attacks on creatures the NPC protects, kills it
 * witnessed; every disposition change is remembered with its reason (tag `disposition`, `delta:+n`).
 */
export class NpcMemoryRecorder {
  private readonly stops: Array<() => void>;
  /** Writes in flight (tests and shutdown wait for them). */
  private pending = new Set<Promise<unknown>>();

  constructor(
    private readonly world: World,
    private readonly memory: MemoryService,
    events: WorldEventBus,
    private readonly logger: Logger,
  ) {
    this.stops = [
      events.subscribe('npc.disposition', (e) => this.onDisposition(e)),
      events.subscribe('npc.conversation', (e) => this.onConversation(e)),
      events.subscribe('quest.accepted', (e) => this.onQuestAccepted(e)),
      events.subscribe('creature.killed', (e) => this.onKill(e)),
    ];
  }

  /** Resolves when every memory written so far is stored. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  close(): void {
    for (const stop of this.stops) stop();
  }

  private onDisposition(e: Extract<WorldEvent, { type: 'npc.disposition' }>): void {
    const npc = this.world.npcs.get(e.npc);
    const template = DISPOSITION_MEMORIES[e.cause];
    if (!npc || !template) return;
    const sign = e.delta >= 0 ? `+${e.delta}` : String(e.delta);
    this.write(npc, e.userId, {
      content: `${template.says(this.nameOf(npc, e.cause, e.about))} (${sign}, now ${e.disposition})`,
      kind: template.kind,
      importance: template.importance,
      tags: [DISPOSITION_TAG, `delta:${sign}`, ...(e.about ? [`about:${e.about}`] : [])],
    });
  }

  private onConversation(e: Extract<WorldEvent, { type: 'npc.conversation' }>): void {
    const npc = this.world.npcs.get(e.npc);
    if (npc)
      this.write(npc, e.userId, {
        content: `We talked; I was ${e.disposition} toward you.`,
        kind: 'talk',
        importance: 0.2,
      });
  }

  private onQuestAccepted(e: Extract<WorldEvent, { type: 'quest.accepted' }>): void {
    const npc = this.world.npcs.get(e.giver);
    const quest = this.world.quests.get(e.quest);
    if (npc && quest) {
      this.write(npc, e.userId, {
        content: `I asked you to help with "${quest.name}".`,
        kind: 'quest.given',
        importance: 0.6,
        tags: [`about:${quest.ref}`],
      });
    }
  }

  private onKill(e: Extract<WorldEvent, { type: 'creature.killed' }>): void {
    const creature = this.world.creatures.get(e.creature);
    if (!creature) return;
    for (const npc of this.world.npcs.values()) {
      if (npc.room !== e.roomRef) continue;
      for (const userId of e.userIds) {
        this.write(npc, userId, {
          content: `I saw you kill ${withArticle(creature.name)} here.`,
          kind: 'kill.seen',
          importance: npc.protects.includes(creature.ref) ? 0.8 : 0.3,
          tags: [`about:${creature.ref}`],
        });
      }
    }
  }

  private nameOf(npc: NpcTemplate, cause: string, about?: string): string {
    if (!about) return 'something';
    if (cause === 'questCompleted') return this.world.quests.get(about)?.name ?? about;
    if (cause === 'dialogue') return npc.topics[about]?.ask ?? about;
    if (cause === 'attackedProtected') return withArticle(this.world.creatures.get(about)?.name ?? about);
    return withArticle(this.world.items.get(about)?.name ?? about);
  }

  private write(npc: NpcTemplate, userId: string, memory: Omit<RememberInput, 'subject'>): void {
    const stored = this.memory
      .remember({ ...memory, subject: npcSubject(npc), tags: [playerTag(userId), ...(memory.tags ?? [])] })
      .catch((err: unknown) => this.logger.warn({ err, npc: npc.ref }, 'NPC memory not stored'))
      .finally(() => this.pending.delete(stored));
    this.pending.add(stored);
  }
}

/** "the cave rat" / "a glowing crystal": a name with an article unless it has one. */
export function withArticle(name: string): string {
  return /^(the|a|an|some)\s/i.test(name) || /^[A-Z]/.test(name) ? name : `the ${name}`;
}
