import type { QuestDef } from '../../content/world';
import { type SimContext, requireAlive, requirePlayer } from '../context';
import { reject } from '../errors';
import { acceptQuest, completeQuest, objectiveViews, offeredQuests } from './quests';

/**
 * One-step quest taking: the work an NPC offered a player last (`talk`) is remembered, so `accept` or `yes`
 * takes it without naming it, and `complete` without a name hands in the finished quest whose giver is in the room.
 */

/**
 * `accept [quest]` / `yes`: with a name, takes that quest from a giver in the room; without, the first quest of
 * the most recent offer that is still open (the giver must be here). 409 `NO_OFFER` when nothing was offered.
 */
export function acceptOffer(ctx: SimContext, userId: string, query?: string): void {
  if (query) return acceptQuest(ctx, userId, query);
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const offer = ctx.journal(userId).offer;
  const giver = offer ? ctx.world.npcs.get(offer.npc) : undefined;
  if (!offer || !giver)
    throw reject(
      'NO_OFFER',
      'Nobody has offered you work yet. Talk to people ("talk <name>") to hear what they need.',
    );
  const open = new Set(offeredQuests(ctx, userId, giver).map((q) => q.ref));
  const next = offer.quests.find((ref) => open.has(ref));
  if (!next) throw reject('NO_OFFER', `You have taken everything ${giver.name} offered you.`);
  const quest = ctx.world.quests.get(next)!;
  if (giver.room !== player.roomRef)
    throw reject('QUEST_GIVER_ABSENT', `Go back to ${giver.name} to take "${quest.name}".`);
  acceptQuest(ctx, userId, quest.ref);
}

/**
 * `complete [quest]`: with a name, hands that quest in; without, the active quest whose objectives are all met and
 * whose giver stands in the room (the first, if several). 409 `QUEST_INCOMPLETE` when none is ready here.
 */
export function completeHere(ctx: SimContext, userId: string, query?: string): void {
  if (query) return completeQuest(ctx, userId, query);
  const player = requirePlayer(ctx, userId);
  const ready = readyQuests(ctx, userId);
  const here = ready.find((quest) => ctx.world.npcs.get(quest.giver)?.room === player.roomRef);
  if (here) return completeQuest(ctx, userId, here.ref);
  if (ready.length > 0) {
    const giver = ctx.world.npcs.get(ready[0].giver)!;
    throw reject('QUEST_GIVER_ABSENT', `Return to ${giver.name} to complete "${ready[0].name}".`);
  }
  throw reject('QUEST_INCOMPLETE', 'None of your quests is finished yet. Type "quests" to see what is left.');
}

/** The player's active quests whose every objective is met. */
export function readyQuests(ctx: SimContext, userId: string): QuestDef[] {
  const player = requirePlayer(ctx, userId);
  return [...ctx.journal(userId).quests.entries()]
    .filter(([, progress]) => progress.status === 'active')
    .map(([ref, progress]) => ({ quest: ctx.world.quests.get(ref)!, progress }))
    .filter(({ quest, progress }) => objectiveViews(ctx.world, player, quest, progress).every((o) => o.done))
    .map(({ quest }) => quest);
}
