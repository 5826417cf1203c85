import type { Disposition } from '../content/schemas';
import type { NpcTemplate } from '../content/world';
import { type SimContext, matchByName } from './context';
import { reject } from './errors';

/**
 * NPC disposition toward each player. Each NPC keeps a score per player (-10..10, stored in the player's
 * journal) that actions move; the score maps to friendly / neutral / wary, which decides what the NPC says
 * and whether it offers quests and wares.
 */

/** Score changes per kind of action. */
export const DISPOSITION_DELTAS = {
  gift: 1,
  likedGift: 2,
  questCompleted: 3,
  attackedProtected: -3,
  /** Dialogue answers carry their own delta (`topics.<id>.disposition` in npcs.yml). */
  dialogue: 0,
} as const;
export type DispositionCause = keyof typeof DISPOSITION_DELTAS;

/** The score a player starts at with an NPC of each starting disposition. */
export const START_SCORE: Record<Disposition, number> = { friendly: 3, neutral: 0, wary: -3 };

/** friendly at 3 and above, wary at -3 and below, neutral between. */
export function dispositionFor(score: number): Disposition {
  if (score >= 3) return 'friendly';
  if (score <= -3) return 'wary';
  return 'neutral';
}

/**
 * The player's current score with `npc`: until something happens between them, the NPC's starting disposition
 * plus the first impression the player's social standing makes (rooms/standings.ts).
 */
export function relationScore(ctx: SimContext, userId: string, npc: NpcTemplate): number {
  const journal = ctx.journal(userId);
  return journal.relations.get(npc.ref) ?? START_SCORE[npc.disposition] + (journal.firstImpression ?? 0);
}

/** The player's current disposition with `npc`. */
export function dispositionOf(ctx: SimContext, userId: string, npc: NpcTemplate): Disposition {
  return dispositionFor(relationScore(ctx, userId, npc));
}

/**
 * Moves the score by the cause's delta (clamped to -10..10); tells the player when the level changes and publishes
 * `npc.disposition` with the cause and what it was `about` (item, quest, creature or topic), for the NPC's memory.
 */
export function adjustDisposition(
  ctx: SimContext,
  userId: string,
  npc: NpcTemplate,
  cause: DispositionCause,
  delta: number = DISPOSITION_DELTAS[cause],
  about?: string,
): Disposition {
  const before = relationScore(ctx, userId, npc);
  const after = Math.max(-10, Math.min(10, before + delta));
  ctx.journal(userId).relations.set(npc.ref, after);
  const disposition = dispositionFor(after);
  ctx.publish({
    type: 'npc.disposition',
    areaId: ctx.area.id,
    userId,
    npc: npc.ref,
    cause,
    delta: after - before,
    score: after,
    disposition,
    ...(about ? { about } : {}),
  });
  if (disposition !== dispositionFor(before)) {
    ctx.emit({ type: 'disposition.changed', npc: { name: npc.name }, disposition, to: { userId } });
  }
  return disposition;
}

/** NPCs standing in a room. */
export function npcsIn(ctx: SimContext, roomRef: string): NpcTemplate[] {
  return [...ctx.world.npcs.values()].filter((npc) => npc.room === roomRef);
}

/** The NPC in the player's room that `query` names, or a 409 `NO_SUCH_NPC`. */
export function findNpc(ctx: SimContext, roomRef: string, query: string): NpcTemplate {
  const npc = matchByName(npcsIn(ctx, roomRef), query, (n) => [n.ref, n.id, n.name]);
  if (!npc) throw reject('NO_SUCH_NPC', `There is nobody called "${query}" here.`);
  return npc;
}

/** Dialogue topics `npc` offers this player now (their `requires` quest done). */
export function topicsOf(
  ctx: SimContext,
  userId: string,
  npc: NpcTemplate,
): Array<{ id: string; ask: string }> {
  const quests = ctx.journal(userId).quests;
  return Object.entries(npc.topics)
    .filter(([, t]) => !t.requires || quests.get(t.requires)?.status === 'completed')
    .map(([id, t]) => ({ id, ask: t.ask }));
}
