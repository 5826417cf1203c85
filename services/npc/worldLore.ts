import { Bm25Index } from '../../ai/fulltext/bm25Index';
import { analyze } from '../../ai/text/terms';
import type { World } from '../../rooms/content/world';

/** One passage of the world's lore: where it comes from (`help:start`, `room:village:square`), a title, the text. */
export interface LorePassage {
  ref: string;
  title: string;
  text: string;
}

/**
 * What the world's data says, as a searchable body of lore (BM25 over the brain's text analysis): the help topics,
 * every room, creature, item, NPC and quest description, and the NPCs' open dialogue topics (those that need no
 * finished quest). NPCs answer questions from it; it is built once from the loaded world and never changes.
 */
/** How much more an NPC's own knowledge weighs in its answers (see WorldLore.search). */
const OWN_KNOWLEDGE_BOOST = 1.5;

export class WorldLore {
  private readonly index = new Bm25Index();
  private readonly passages = new Map<string, LorePassage>();

  constructor(world: World) {
    for (const [id, topic] of world.help)
      this.add({ ref: `help:${id}`, title: topic.title, text: topic.text });
    for (const room of world.rooms.values())
      this.add({ ref: `room:${room.ref}`, title: room.name, text: room.description });
    for (const creature of world.creatures.values()) {
      this.add({ ref: `creature:${creature.ref}`, title: creature.name, text: creature.description });
    }
    for (const item of world.items.values())
      this.add({ ref: `item:${item.ref}`, title: item.name, text: item.description });
    for (const quest of world.quests.values())
      this.add({ ref: `quest:${quest.ref}`, title: quest.name, text: quest.description });
    for (const npc of world.npcs.values()) {
      this.add({ ref: `npc:${npc.ref}`, title: npc.name, text: npc.description });
      for (const [id, topic] of Object.entries(npc.topics)) {
        if (!topic.requires) this.add({ ref: `topic:${npc.ref}#${id}`, title: topic.ask, text: topic.reply });
      }
    }
  }

  /**
   * The passages best matching `question`, best first. With `speaker`, what that NPC knows first-hand (its own
   * topics and description) weighs `OWN_KNOWLEDGE_BOOST` times more: asked about the founder, the elder answers with
   * her own story before a quest that mentions him.
   */
  search(question: string, limit = 3, speaker?: string): Array<{ passage: LorePassage; score: number }> {
    const own = (ref: string) =>
      speaker !== undefined && (ref === `npc:${speaker}` || ref.startsWith(`topic:${speaker}#`));
    return this.index
      .search(analyze(question), limit + 10)
      .map((hit) => ({
        passage: this.passages.get(hit.id)!,
        score: hit.score * (own(hit.id) ? OWN_KNOWLEDGE_BOOST : 1),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }

  /** One passage by ref. */
  get(ref: string): LorePassage | undefined {
    return this.passages.get(ref);
  }

  private add(passage: LorePassage): void {
    this.passages.set(passage.ref, passage);
    this.index.add(passage.ref, [
      { text: passage.title, boost: 2 },
      { text: passage.text, boost: 1 },
    ]);
  }
}
