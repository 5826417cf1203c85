import type { CharacterRecord } from '../../models/Character';
import type { PlayerActivityRecord } from '../../models/PlayerActivity';
import { PLAY_STYLES, type QuestCatalogue, type StyleVector } from './questCatalogue';

/** The raw evidence behind a play style, per style. */
export type StyleEvidence = Record<keyof StyleVector, number>;

/**
 * A player's play style inferred from their actions: combat from kills (world events) and kill objectives done,
 * crafting from skill levels and collect objectives, talking from NPCs met, topics asked and conversations,
 * exploring from rooms visited and visit objectives. Each style gets one pseudo-count so a new player starts
 * balanced; the shares sum to 1.
 */
export function inferPlayStyle(
  character: CharacterRecord | null,
  catalogue: QuestCatalogue,
  activity: PlayerActivityRecord | null,
): { style: StyleVector; evidence: StyleEvidence } {
  const evidence: StyleEvidence = { combat: 0, crafting: 0, talking: 0, exploring: 0 };
  if (character) {
    for (const [ref, progress] of Object.entries(character.quests ?? {})) {
      const quest = catalogue.world.quests.get(ref);
      if (!quest) continue;
      quest.objectives.forEach((objective, index) => {
        const done =
          progress.status === 'completed'
            ? objective.kind === 'kill' || objective.kind === 'collect'
              ? objective.count
              : 1
            : (progress.counts[index] ?? 0);
        if (objective.kind === 'kill') evidence.combat += done;
        else if (objective.kind === 'collect') evidence.crafting += done;
        else if (objective.kind === 'talk') evidence.talking += done;
        else evidence.exploring += done;
      });
    }
    evidence.crafting += Object.values(character.skills ?? {}).reduce((sum, level) => sum + level, 0);
    evidence.talking += Object.keys(character.relations ?? {}).length + (character.asked?.length ?? 0);
    evidence.exploring += character.visited?.length ?? 0;
  }
  if (activity) {
    evidence.combat += activity.kills;
    evidence.talking += activity.conversations;
    evidence.crafting += activity.trades;
  }
  const total = PLAY_STYLES.reduce((sum, style) => sum + evidence[style] + 1, 0);
  const style = Object.fromEntries(
    PLAY_STYLES.map((name) => [name, Math.round(((evidence[name] + 1) / total) * 1000) / 1000]),
  ) as StyleVector;
  return { style, evidence };
}
