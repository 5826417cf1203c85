import type { CharacterRecord } from '../../models/Character';
import type { PlayerActivityRecord } from '../../models/PlayerActivity';
import { inferPlayStyle, type StyleEvidence } from './playStyle';
import type { QuestCatalogue, QuestState, StyleVector } from './questCatalogue';
import type { QuestSignals } from './questSignals';

/** A player's progression. */
export interface PlayerInsights {
  level: number;
  xp: number;
  counts: Record<QuestState, number>;
  total: number;
  completion_ratio: number;
  style: StyleVector;
  evidence: StyleEvidence;
  per_area: Array<{ area: string; completed: number; total: number }>;
  recent: Array<{ quest: string; name: string; completed_at: string }>;
}

/** The caller's progression from their character and activity. */
export function playerInsights(
  catalogue: QuestCatalogue,
  character: CharacterRecord | null,
  activity: PlayerActivityRecord | null,
  now: number,
): PlayerInsights {
  const counts: Record<QuestState, number> = { active: 0, completed: 0, available: 0, locked: 0 };
  const areas = new Map<string, { completed: number; total: number }>();
  for (const quest of catalogue.quests.values()) {
    const state = catalogue.stateOf(quest, character, now);
    counts[state] += 1;
    const area = areas.get(quest.area) ?? { completed: 0, total: 0 };
    area.total += 1;
    if (character?.quests[quest.ref]?.status === 'completed') area.completed += 1;
    areas.set(quest.area, area);
  }
  const completedEver = [...areas.values()].reduce((sum, area) => sum + area.completed, 0);
  const { style, evidence } = inferPlayStyle(character, catalogue, activity);
  const recent = Object.entries(character?.quests ?? {})
    .filter(([, progress]) => progress.status === 'completed' && progress.completedAt)
    .sort((a, b) => (b[1].completedAt ?? 0) - (a[1].completedAt ?? 0))
    .slice(0, 5)
    .map(([quest, progress]) => ({
      quest,
      name: catalogue.quests.get(quest)?.name ?? quest,
      completed_at: new Date(progress.completedAt ?? 0).toISOString(),
    }));
  return {
    level: character?.level ?? 1,
    xp: character?.xp ?? 0,
    counts,
    total: catalogue.quests.size,
    completion_ratio: catalogue.quests.size
      ? Math.round((completedEver / catalogue.quests.size) * 1000) / 1000
      : 0,
    style,
    evidence,
    per_area: [...areas]
      .map(([area, figures]) => ({ area, ...figures }))
      .sort((a, b) => a.area.localeCompare(b.area)),
    recent,
  };
}

/** One quest across the world's characters. */
export interface QuestWorldFigures {
  quest: string;
  name: string;
  active: number;
  completed: number;
  completion_rate: number | null;
  abandoned: number;
  avg_minutes_to_complete: number | null;
  observed_completions: number;
}

/** The world's quest figures (operators). */
export interface WorldInsights {
  players_scanned: number;
  truncated: boolean;
  quests: QuestWorldFigures[];
  deaths: Array<{ room: string; deaths: number }>;
}

/** A quest left active this long on a character not saved since counts as abandoned. */
const ABANDONED_MS = 7 * 86_400_000;
const MAX_SCANNED = 20_000;
const PAGE = 1000;

/**
 * The world's figures: every character's quests (paged, at most 20 000 characters) for completion rates and
 * abandonment (active on a character untouched for 7 days); time to complete from the brain's observations (first
 * seen active → completed; each scan is itself an observation); deaths per room from world events.
 */
export async function worldInsights(
  catalogue: QuestCatalogue,
  readCharacters: (query: { after?: string; limit: number }) => Promise<CharacterRecord[]>,
  signals: QuestSignals,
  now: number,
): Promise<WorldInsights> {
  const figures = new Map<string, { active: number; completed: number; abandoned: number }>();
  let scanned = 0;
  let after: string | undefined;
  for (;;) {
    const page = await readCharacters({ after, limit: PAGE });
    await signals.observe(page);
    for (const character of page) {
      for (const [quest, progress] of Object.entries(character.quests ?? {})) {
        const entry = figures.get(quest) ?? { active: 0, completed: 0, abandoned: 0 };
        if (progress.status === 'completed') entry.completed += 1;
        else {
          entry.active += 1;
          if (now - character.updatedAt > ABANDONED_MS) entry.abandoned += 1;
        }
        figures.set(quest, entry);
      }
    }
    scanned += page.length;
    if (page.length < PAGE || scanned >= MAX_SCANNED) break;
    after = page[page.length - 1].userId;
  }
  const durations = await signals.signals.aggregate<{ _id: string; minutes: number; n: number }>([
    { $match: { first_active_at: { $ne: null }, completed_at: { $ne: null } } },
    { $project: { quest: 1, ms: { $subtract: ['$completed_at', '$first_active_at'] } } },
    { $match: { ms: { $gt: 0 } } },
    { $group: { _id: '$quest', minutes: { $avg: { $divide: ['$ms', 60_000] } }, n: { $sum: 1 } } },
  ]);
  const timed = new Map(durations.map((row) => [row._id, row]));
  const deaths = await signals.deaths.find({}).sort({ deaths: -1 }).limit(10).lean();
  return {
    players_scanned: scanned,
    truncated: scanned >= MAX_SCANNED,
    quests: [...catalogue.quests.values()].map((quest) => {
      const entry = figures.get(quest.ref) ?? { active: 0, completed: 0, abandoned: 0 };
      const started = entry.active + entry.completed;
      const time = timed.get(quest.ref);
      return {
        quest: quest.ref,
        name: quest.name,
        ...entry,
        completion_rate: started ? Math.round((entry.completed / started) * 1000) / 1000 : null,
        avg_minutes_to_complete: time ? Math.round(time.minutes * 10) / 10 : null,
        observed_completions: time?.n ?? 0,
      };
    }),
    deaths: deaths.map((row) => ({ room: row._id, deaths: row.deaths })),
  };
}
