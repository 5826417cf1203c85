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

  /** The passages best matching `question`, best first. */
  search(question: string, limit = 3): Array<{ passage: LorePassage; score: number }> {
    return this.index
      .search(analyze(question), limit)
      .map((hit) => ({ passage: this.passages.get(hit.id)!, score: hit.score }));
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
