import type { Logger } from 'pino';
import type { World } from '../../rooms/content/world';
import type { WorldEvent, WorldEventBus } from '../../rooms/worldEvents';
import type { MemoryService } from '../brain';

/** The memory subject of one player's companion: `companion:<user>:<companion ref>`. */
export function companionSubject(userId: string, companionRef: string): string {
  return `companion:${userId}:${companionRef}`;
}

/** How much each kind of shared moment weighs in the companion's recall. */
const IMPORTANCE: Record<string, number> = { bonded: 0.9, quest: 0.8, found: 0.6, fight: 0.5, rest: 0.3 };

/**
 * A companion remembers what it shared with its player: every `companion.moment` of the world (met, fights won,
 * rests, quests completed, things found) becomes an episodic memory in the player's own words-to-be ("We found a
 * glowing crystal in the Crystal Grotto."), tagged with the place (`place:<room ref>`) and the bond it reached.
 */
export class CompanionMemoryRecorder {
  private readonly stop: () => void;
  private pending = new Set<Promise<unknown>>();

  constructor(
    private readonly world: World,
    private readonly memory: MemoryService,
    events: WorldEventBus,
    private readonly logger: Logger,
  ) {
    this.stop = events.subscribe('companion.moment', (e) => this.onMoment(e));
  }

  /** Resolves when every memory written so far is stored. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  close(): void {
    this.stop();
  }

  private onMoment(e: Extract<WorldEvent, { type: 'companion.moment' }>): void {
    const place = this.world.rooms.get(e.roomRef)?.name ?? e.roomRef;
    const stored = this.memory
      .remember({
        subject: companionSubject(e.userId, e.companion),
        content: `We ${e.text} in the ${place}.`,
        kind: e.moment,
        importance: IMPORTANCE[e.moment] ?? 0.5,
        tags: [`place:${e.roomRef}`, `bond:${e.bond}`],
      })
      .catch((err: unknown) =>
        this.logger.warn({ err, companion: e.companion }, 'companion memory not stored'),
      )
      .finally(() => this.pending.delete(stored));
    this.pending.add(stored);
  }
}

/**
 * Publishes companion bond level-ups (SPEC 2.10, 3.4: bond 1-5) as `companion.bond` notifications, from the world's
 * `companion.moment` events whose bond rose. Works with or without the companion brain; returns the unsubscribe.
 */
export function publishBondLevels(
  world: World,
  events: WorldEventBus,
  notify: (userId: string, kind: string, payload: Record<string, unknown>) => void,
): () => void {
  return events.subscribe('companion.moment', (e) => {
    if (e.bond <= e.bondBefore) return;
    const name = world.companions.get(e.companion)?.name ?? e.companion;
    notify(e.userId, 'companion.bond', {
      companion: e.companion,
      name,
      bond: e.bond,
      previous: e.bondBefore,
    });
  });
}
