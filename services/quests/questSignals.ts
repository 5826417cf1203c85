import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import type { CharacterRecord } from '../../models/Character';
import { playerActivityModel, roomDeathsModel, type PlayerActivityRecord } from '../../models/PlayerActivity';
import { questSignalModel, type QuestSignalRecord } from '../../models/QuestSignal';
import type { Clock } from '../../platform/clock';
import type { WorldEventBus } from '../../rooms/worldEvents';

/**
 * The quests brain's own records: dismissals, observed quest starts and completions, per-player activity counters
 * and deaths per room (the last two from the world's event bus, when the composition hands one in).
 */
export class QuestSignals {
  readonly signals;
  readonly activity;
  readonly deaths;

  constructor(
    connection: Connection,
    private readonly clock: Clock,
  ) {
    this.signals = questSignalModel(connection);
    this.activity = playerActivityModel(connection);
    this.deaths = roomDeathsModel(connection);
  }

  async ensureIndexes(): Promise<void> {
    await this.signals.createIndexes();
  }

  /** Records a dismissal (idempotent: the first time stands). */
  async dismiss(userId: string, quest: string): Promise<Date> {
    const now = new Date(this.clock.now());
    const row = await this.signals
      .findOneAndUpdate(
        { _id: `${userId}|${quest}` },
        {
          $setOnInsert: { userId, quest, first_active_at: null, completed_at: null },
          $min: { dismissed_at: now },
        },
        { upsert: true, returnDocument: 'after' },
      )
      .lean<QuestSignalRecord>();
    return row?.dismissed_at ?? now;
  }

  /** A player's signals (dismissals among them). */
  forUser(userId: string): Promise<QuestSignalRecord[]> {
    return this.signals.find({ userId }).lean<QuestSignalRecord[]>();
  }

  /** The player's activity counters, or null before their first world event. */
  activityOf(userId: string): Promise<PlayerActivityRecord | null> {
    return this.activity.findById(userId).lean<PlayerActivityRecord>();
  }

  /**
   * Notes what a read of characters shows: a quest seen active for the first time, a completion with its time
   * (one unordered bulk write of conditional upserts; observing the same state again changes nothing).
   */
  async observe(characters: CharacterRecord[]): Promise<void> {
    const now = new Date(this.clock.now());
    const ops = characters.flatMap((character) =>
      Object.entries(character.quests ?? {}).map(([quest, progress]) => ({
        updateOne: {
          filter: { _id: `${character.userId}|${quest}` },
          update:
            progress.status === 'active'
              ? {
                  $setOnInsert: { userId: character.userId, quest, dismissed_at: null, completed_at: null },
                  $min: { first_active_at: now },
                }
              : {
                  $setOnInsert: {
                    userId: character.userId,
                    quest,
                    dismissed_at: null,
                    first_active_at: null,
                  },
                  $max: { completed_at: new Date(progress.completedAt ?? now.getTime()) },
                },
          upsert: true,
        },
      })),
    );
    if (ops.length > 0) await this.signals.bulkWrite(ops, { ordered: false });
  }

  /** Counts world events per player and deaths per room; returns the unsubscribe. */
  subscribe(bus: WorldEventBus, logger: Logger, onQuestCompleted?: (userId: string) => void): () => void {
    const count = (userId: string, field: 'kills' | 'deaths' | 'conversations' | 'trades' | 'quests') =>
      void this.activity
        .updateOne(
          { _id: userId },
          { $inc: { [field]: 1 }, $set: { updatedAt: new Date(this.clock.now()) } },
          { upsert: true },
        )
        .catch((error: unknown) => logger.warn({ err: error }, 'player activity not counted'));
    const unsubscribe = [
      bus.subscribe('creature.killed', (event) => event.userIds.forEach((userId) => count(userId, 'kills'))),
      bus.subscribe('npc.conversation', (event) => count(event.userId, 'conversations')),
      bus.subscribe('trade.completed', (event) => count(event.userId, 'trades')),
      bus.subscribe('quest.completed', (event) => {
        count(event.userId, 'quests');
        onQuestCompleted?.(event.userId);
      }),
      bus.subscribe('player.died', (event) => {
        count(event.userId, 'deaths');
        void this.deaths
          .updateOne(
            { _id: event.roomRef },
            { $inc: { deaths: 1 }, $set: { last_at: new Date(this.clock.now()) } },
            { upsert: true },
          )
          .catch((error: unknown) => logger.warn({ err: error }, 'room death not counted'));
      }),
    ];
    return () => unsubscribe.forEach((stop) => stop());
  }
}
