import type { EmbeddingChain } from '../../ai/embeddings/embeddingChain';
import type { CharacterRecord } from '../../models/Character';
import type { Clock } from '../../platform/clock';
import { questNotFound } from './errors';
import type { QuestCatalogue } from './questCatalogue';
import { playerInsights, worldInsights } from './questInsights';
import type { QuestSignals } from './questSignals';
import type { QuestTexts } from './questTexts';
import { recommend } from './recommendations';
import { analyze } from '../../ai/text/terms';

/**
 * The notification kinds the quests area publishes: after a completion, the player's next recommendations (payload
 * `quests: [{quest, name, score}]`). The notifications area lists each (a test holds the two together).
 */
export const QUEST_NOTIFICATION_KINDS = ['quests.recommendations'] as const;
export type QuestNotificationKind = (typeof QUEST_NOTIFICATION_KINDS)[number];

/** The port issue 24's notifications plug into: a message of `kind` for one user. */
export type Notify = (userId: string, kind: QuestNotificationKind, payload: Record<string, unknown>) => void;

/** What the quests brain reads and writes. */
export interface QuestBrainDependencies {
  catalogue: QuestCatalogue;
  signals: QuestSignals;
  texts: QuestTexts;
  chain: EmbeddingChain;
  clock: Clock;
  /** The world's read of saved characters (services/mud `WorldService.readCharacters`). */
  readCharacters: (query: { userId?: string; after?: string; limit: number }) => Promise<CharacterRecord[]>;
  eventsConnected: boolean;
}

/** The quests brain's commands behind its routes (SPEC 4.8). */
/** Nearest quest texts re-ranked for a suggestion. */
const SUGGESTION_CANDIDATES = 20;

export class QuestBrain {
  constructor(private readonly deps: QuestBrainDependencies) {}

  /** The user's character (observed, so quest starts and completions are timed), or null before they played. */
  async character(userId: string): Promise<CharacterRecord | null> {
    const [character] = await this.deps.readCharacters({ userId, limit: 1 });
    if (character) await this.deps.signals.observe([character]);
    return character ?? null;
  }

  async recommendations(userId: string, limit: number) {
    const { catalogue, signals, clock } = this.deps;
    const [character, userSignals, activity] = await Promise.all([
      this.character(userId),
      signals.forUser(userId),
      signals.activityOf(userId),
    ]);
    return { character, ...recommend(catalogue, character, userSignals, activity, clock.now(), limit) };
  }

  async dismiss(userId: string, quest: string) {
    if (!this.deps.catalogue.quests.has(quest)) throw questNotFound(quest);
    return { quest, dismissed_at: await this.deps.signals.dismiss(userId, quest) };
  }

  /**
   * Quests whose texts match the interests, with the caller's state on each: the nearest quest texts by meaning
   * (vectors), re-ranked by half similarity and half the share of the interests' terms the quest text contains, so
   * a quest that names what was asked for ("hunting wolves") is not outranked by one that only shares its setting.
   */
  async suggest(userId: string, interests: string, limit: number) {
    const [hits, character] = await Promise.all([
      this.deps.texts.search(interests, Math.max(limit * 3, SUGGESTION_CANDIDATES)),
      this.character(userId),
    ]);
    const now = this.deps.clock.now();
    const asked = new Set(analyze(interests));
    const scored = hits.flatMap((hit) => {
      const quest = this.deps.catalogue.quests.get(hit.ref);
      if (!quest) return [];
      const terms = new Set(analyze(quest.text));
      const coverage = asked.size ? [...asked].filter((term) => terms.has(term)).length / asked.size : 0;
      const score = Math.round((0.5 * hit.score + 0.5 * coverage) * 1000) / 1000;
      return [{ quest, score, state: this.deps.catalogue.stateOf(quest, character, now) }];
    });
    return scored.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  async insights(userId: string, operator: boolean) {
    const { catalogue, signals, clock } = this.deps;
    const [character, activity] = await Promise.all([this.character(userId), signals.activityOf(userId)]);
    const player = playerInsights(catalogue, character, activity, clock.now());
    const world = operator
      ? await worldInsights(catalogue, this.deps.readCharacters, signals, clock.now())
      : null;
    return { player, world };
  }

  async status() {
    const providers = this.deps.chain.breakerStates();
    const open = providers.filter((p) => p.state === 'OPEN').length;
    return {
      state:
        open === providers.length ? ('down' as const) : open > 0 ? ('degraded' as const) : ('up' as const),
      world_quests: this.deps.catalogue.quests.size,
      quests_indexed: await this.deps.texts.size(),
      last_sync: this.deps.texts.lastSync?.toISOString() ?? null,
      events_connected: this.deps.eventsConnected,
      providers: providers.map(({ provider, model, state }) => ({ provider, model, state })),
    };
  }
}
