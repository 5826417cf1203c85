import type { PlayerState } from '../../state/PlayerState';
import type { SimContext } from '../context';

/**
 * Riddle objectives (`{ kind: riddle, npc, question, answers }`), the world's puzzles: a player on the quest
 * answers by saying the answer (`say`, `answer`) where the NPC stands. Case, punctuation and a leading
 * article do not matter ("An echo." is "echo"); a wrong answer is told so and may be tried again.
 */

/** Lowercase words without punctuation or a leading article. */
export function normaliseAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(a|an|the) /, '');
}

/** Hears what the player said: answers every unsolved riddle whose NPC stands in their room. */
export function hearAnswer(ctx: SimContext, player: PlayerState, text: string): void {
  const said = normaliseAnswer(text);
  for (const [ref, progress] of ctx.journal(player.userId).quests) {
    if (progress.status !== 'active') continue;
    ctx.world.quests.get(ref)!.objectives.forEach((objective, i) => {
      if (objective.kind !== 'riddle' || (progress.counts[i] ?? 0) >= 1) return;
      const npc = ctx.world.npcs.get(objective.npc)!;
      if (npc.room !== player.roomRef) return;
      const correct = objective.answers.some((answer) => normaliseAnswer(answer) === said);
      ctx.emit({ type: 'riddle.answered', npc: { name: npc.name }, correct, to: { userId: player.userId } });
      if (correct) ctx.ruleEvents.publish({ type: 'answered', userId: player.userId, npc: npc.ref });
    });
  }
}
