import { type EventBus, InProcessEventBus } from '../worldEvents';
import type { SimContext } from './context';
import { countObjectives } from './quests/quests';
import { startEscortsOnCue } from './quests/escorts';

/**
 * What rules tell each other inside one area room: progress a player made that other rules count. The rule where it
 * happened publishes it (`ctx.ruleEvents`) and does not know who listens: quest objectives listen for `talked`,
 * `killed`, `visited`, `escorted` and `answered` (a riddle solved); escorts start on `questAccepted` and `talked`.
 *
 * It is the world event bus's class (`rooms/worldEvents.ts`), one per room: the platform's bus is shared by every
 * room of a process, may have no subscribers at all, and keeps a failing subscriber from its publisher. Here a
 * listener runs synchronously, in the order it subscribed, and its error is the action's error.
 */
export type RuleEvent =
  | { type: 'talked'; userId: string; npc: string }
  | { type: 'killed'; userId: string; creature: string }
  | { type: 'visited'; userId: string; roomRef: string }
  | { type: 'escorted'; userId: string; npc: string }
  | { type: 'answered'; userId: string; npc: string }
  | { type: 'questAccepted'; userId: string; quest: string };

/** A room's bus of rule events. */
export type RuleEventBus = EventBus<RuleEvent>;

/** A new rule event bus whose listeners' errors reach the publisher (so a failing rule fails the action). */
export function ruleEventBus(): RuleEventBus {
  return new InProcessEventBus<RuleEvent>((error) => {
    throw error;
  });
}

/**
 * Subscribes the rules that listen to others, once per context, after it is built. Order matters where two listen
 * to one event: a talk counts toward "talk" objectives before it starts that NPC's escort.
 */
export function listenToRuleEvents(ctx: SimContext): void {
  countObjectives(ctx);
  startEscortsOnCue(ctx);
}
