import type { CharacterRecord } from '../../models/Character';
import type { QuestSignalRecord } from '../../models/QuestSignal';
import type { PlayerActivityRecord } from '../../models/PlayerActivity';
import { areaOf } from '../../rooms/content/world';
import { inferPlayStyle } from './playStyle';
import { styleSimilarity, type QuestCatalogue, type QuestFeatures, type StyleVector } from './questCatalogue';

/** One recommended quest with its score and the reasons behind it. */
export interface Recommendation {
  quest: QuestFeatures;
  score: number;
  reasons: string[];
}

/** Weights of the recommendation score (they sum to 1 before the dismissal penalty). */
export const RECOMMENDATION_WEIGHTS = { style: 0.4, level: 0.3, proximity: 0.2, reward: 0.1, dismissed: 0.5 };

/**
 * Recommendations for a character: the quests it can take now (not active, not completed unless daily and due,
 * prerequisites done), scored by how well their objectives match the player's inferred play style, how close their
 * level is to the character's (harder ones cost more than easier ones), how near their area is, and their reward;
 * each dismissed quest lowers similar ones (same giver, same area, same style) by up to half its weight, so
 * dismissing adapts what comes next. Dismissed quests themselves are never recommended again.
 */
export function recommend(
  catalogue: QuestCatalogue,
  character: CharacterRecord | null,
  signals: QuestSignalRecord[],
  activity: PlayerActivityRecord | null,
  now: number,
  limit: number,
): { recommendations: Recommendation[]; style: StyleVector } {
  const { style } = inferPlayStyle(character, catalogue, activity);
  const level = character?.level ?? 1;
  const here = character ? areaOf(character.roomRef) : areaOf(catalogue.world.startRoom);
  const dismissed = signals
    .filter((signal) => signal.dismissed_at)
    .map((signal) => catalogue.quests.get(signal.quest))
    .filter((quest): quest is QuestFeatures => quest !== undefined);
  const maxXp = Math.max(1, ...[...catalogue.quests.values()].map((quest) => quest.xp));
  const scored: Recommendation[] = [];
  for (const quest of catalogue.quests.values()) {
    if (catalogue.stateOf(quest, character, now) !== 'available') continue;
    if (dismissed.some((d) => d.ref === quest.ref)) continue;
    const w = RECOMMENDATION_WEIGHTS;
    const styleFit = styleSimilarity(style, quest.style);
    const gap = quest.level - level;
    const levelFit = Math.max(0, 1 - (gap > 0 ? gap / 3 : -gap / 6));
    const proximity = catalogue.proximity(here, quest.area);
    const reward = quest.xp / maxXp;
    const penalty = Math.max(0, ...dismissed.map((d) => similarity(quest, d)));
    const score =
      w.style * styleFit +
      w.level * levelFit +
      w.proximity * proximity +
      w.reward * reward -
      w.dismissed * penalty;
    const reasons = [
      `${Math.round(styleFit * 100)}% match with your play style (${dominant(quest.style)} quest)`,
      gap > 0
        ? `level ${quest.level}, ${gap} above yours`
        : `level ${quest.level}, suits your level ${level}`,
      proximity === 1
        ? 'in the area you are in'
        : proximity > 0
          ? 'in a neighbouring area'
          : `in ${quest.area}`,
    ];
    if (penalty > 0)
      reasons.push(`lowered: like a quest you dismissed (${Math.round(penalty * 100)}% similar)`);
    scored.push({ quest, score: Math.round(score * 1000) / 1000, reasons });
  }
  scored.sort((a, b) => b.score - a.score || a.quest.ref.localeCompare(b.quest.ref));
  return { recommendations: scored.slice(0, limit), style };
}

/** How alike two quests are: same giver (0.4), same area (0.2) and style similarity (0.4). */
export function similarity(a: QuestFeatures, b: QuestFeatures): number {
  return (
    (a.giver === b.giver ? 0.4 : 0) + (a.area === b.area ? 0.2 : 0) + 0.4 * styleSimilarity(a.style, b.style)
  );
}

function dominant(style: StyleVector): string {
  return Object.entries(style).sort((a, b) => b[1] - a[1])[0][0];
}
