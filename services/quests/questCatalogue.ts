import type { CharacterRecord } from '../../models/Character';
import { areaOf, type QuestDef, type World } from '../../rooms/content/world';

/** The four play styles a quest's objectives and a player's actions are measured in. */
export const PLAY_STYLES = ['combat', 'crafting', 'talking', 'exploring'] as const;
export type PlayStyle = (typeof PLAY_STYLES)[number];
/** Shares of the four styles (summing to 1). */
export type StyleVector = Record<PlayStyle, number>;

/** The play style each objective kind exercises (escorts are travel; riddles are conversation). */
const STYLE_OF_OBJECTIVE = {
  kill: 'combat',
  collect: 'crafting',
  talk: 'talking',
  visit: 'exploring',
  escort: 'exploring',
  riddle: 'talking',
} as const;

/** What the quests brain knows of one world quest. */
export interface QuestFeatures {
  ref: string;
  area: string;
  name: string;
  description: string;
  giver: string;
  requires: string[];
  repeatable: boolean;
  /** The creature level its fights need, else its area's typical creature level (1 when none). */
  level: number;
  style: StyleVector;
  xp: number;
  soft: number;
  /** Its searchable text: name, description, giver, area and objectives in words. */
  text: string;
}

/** A character's standing on a quest. */
export type QuestState = 'active' | 'completed' | 'available' | 'locked';

const DAY_MS = 86_400_000;

/** The world's quests with their features, and the areas next to each area (for proximity). */
export class QuestCatalogue {
  readonly quests = new Map<string, QuestFeatures>();
  private readonly neighbours = new Map<string, Set<string>>();

  constructor(readonly world: World) {
    const areaLevels = new Map<string, number[]>();
    for (const room of world.rooms.values()) {
      for (const spawn of room.spawns) {
        const level = world.creatures.get(spawn.creature)?.level;
        if (level) areaLevels.set(room.areaId, [...(areaLevels.get(room.areaId) ?? []), level]);
      }
      for (const exit of Object.values(room.exits)) {
        const other = areaOf(exit as string);
        if (other === room.areaId) continue;
        this.link(room.areaId, other);
        this.link(other, room.areaId);
      }
    }
    for (const quest of world.quests.values()) this.quests.set(quest.ref, this.features(quest, areaLevels));
  }

  /** Whether two areas are the same (1), next to each other (0.5) or further apart (0). */
  proximity(fromArea: string, toArea: string): number {
    if (fromArea === toArea) return 1;
    return this.neighbours.get(fromArea)?.has(toArea) ? 0.5 : 0;
  }

  /** A character's state on a quest (daily quests open again a day after completion). */
  stateOf(quest: QuestFeatures, character: CharacterRecord | null, now: number): QuestState {
    const progress = character?.quests[quest.ref];
    if (progress?.status === 'active') return 'active';
    if (progress?.status === 'completed') {
      const reopened = quest.repeatable && (progress.completedAt ?? 0) + DAY_MS <= now;
      if (!reopened) return 'completed';
    }
    const done = (ref: string) => character?.quests[ref]?.status === 'completed';
    return quest.requires.every(done) ? 'available' : 'locked';
  }

  private link(a: string, b: string): void {
    let set = this.neighbours.get(a);
    if (!set) this.neighbours.set(a, (set = new Set()));
    set.add(b);
  }

  private features(quest: QuestDef, areaLevels: Map<string, number[]>): QuestFeatures {
    const counts: StyleVector = { combat: 0, crafting: 0, talking: 0, exploring: 0 };
    const words: string[] = [];
    let fightLevel = 0;
    for (const objective of quest.objectives) {
      counts[STYLE_OF_OBJECTIVE[objective.kind]] += 1;
      if (objective.kind === 'kill') {
        const creature = this.world.creatures.get(objective.creature);
        fightLevel = Math.max(fightLevel, creature?.level ?? 1);
        words.push(`kill ${objective.count} ${creature?.name ?? objective.creature} fight hunt combat`);
      } else if (objective.kind === 'collect') {
        words.push(
          `collect ${objective.count} ${this.world.items.get(objective.item)?.name ?? objective.item} gather`,
        );
      } else if (objective.kind === 'visit') {
        words.push(`visit ${this.world.rooms.get(objective.room)?.name ?? objective.room} explore travel`);
      } else if (objective.kind === 'escort') {
        const who = this.world.npcs.get(objective.npc)?.name ?? objective.npc;
        words.push(
          `escort ${who} to ${this.world.rooms.get(objective.to)?.name ?? objective.to} protect travel`,
        );
      } else if (objective.kind === 'riddle') {
        words.push(`riddle ${objective.question} puzzle answer`);
      } else {
        words.push(`talk to ${this.world.npcs.get(objective.npc)?.name ?? objective.npc} conversation`);
      }
    }
    const levels = areaLevels.get(quest.areaId) ?? [];
    const typical = levels.length ? Math.round(levels.reduce((a, b) => a + b, 0) / levels.length) : 1;
    const total = quest.objectives.length;
    const area = this.world.areas.get(quest.areaId);
    return {
      ref: quest.ref,
      area: quest.areaId,
      name: quest.name,
      description: quest.description,
      giver: quest.giver,
      requires: quest.requires,
      repeatable: quest.repeatable === 'daily',
      level: fightLevel || typical,
      style: {
        combat: counts.combat / total,
        crafting: counts.crafting / total,
        talking: counts.talking / total,
        exploring: counts.exploring / total,
      },
      xp: quest.rewards.xp,
      soft: quest.rewards.soft,
      text: [
        quest.name,
        quest.description,
        `given by ${this.world.npcs.get(quest.giver)?.name ?? quest.giver}`,
        `in ${area?.name ?? quest.areaId}`,
        ...words,
      ].join('. '),
    };
  }
}

/** Cosine similarity of two style vectors. */
export function styleSimilarity(a: StyleVector, b: StyleVector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const style of PLAY_STYLES) {
    dot += a[style] * b[style];
    na += a[style] ** 2;
    nb += b[style] ** 2;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
