import type { NpcTemplate } from '../../content/world';
import type { SimContext } from '../context';
import { closedBy } from './quests';

/**
 * What an NPC adds after its greeting about a quest it takes part in (`questLines` in npcs.yml), by the
 * state of that quest for this player: an `active` line first (the player is on it), else a `before` line
 * for a quest open to them now (prerequisites done, branch not closed), else the `after` line of the quest
 * they completed most recently. Undefined when no line fits.
 */
export function questLineFor(ctx: SimContext, userId: string, npc: NpcTemplate): string | undefined {
  const journal = ctx.journal(userId).quests;
  let before: string | undefined;
  let after: { text: string; at: number } | undefined;
  for (const [ref, lines] of Object.entries(npc.questLines)) {
    const quest = ctx.world.quests.get(ref)!;
    const progress = journal.get(ref);
    if (progress?.status === 'active') {
      if (lines.active) return lines.active;
    } else if (progress?.status === 'completed') {
      const at = progress.completedAt ?? 0;
      if (lines.after && (!after || at >= after.at)) after = { text: lines.after, at };
    } else if (
      lines.before &&
      !before &&
      quest.requires.every((r) => journal.get(r)?.status === 'completed') &&
      !closedBy(ctx, userId, quest)
    ) {
      before = lines.before;
    }
  }
  return before ?? after?.text;
}
