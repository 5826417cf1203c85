import type { Disposition } from '../content/schemas';
import type { NpcTemplate } from '../content/world';
import { type SimContext, matchByName, requireAlive, requirePlayer } from './context';
import { reject } from './errors';
import { companionSpeaks } from './companions';
import { offeredQuests, recordObjective } from './quests/quests';
import { questLineFor } from './quests/npcQuestLines';
import { startEscorts } from './quests/escorts';
import { improve } from './skills';

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

/**
 * What an NPC the player has not dealt with yet has heard of them, when the player's social standing changed how it
 * meets them (rooms/standings.ts): the reason a stranger is warm or cold, said with the greeting.
 */
function heardOf(ctx: SimContext, userId: string, npc: NpcTemplate): string | undefined {
  const journal = ctx.journal(userId);
  if (!journal.firstImpression || journal.relations.has(npc.ref)) return undefined;
  if (dispositionOf(ctx, userId, npc) === npc.disposition) return undefined;
  return journal.firstImpression > 0
    ? 'I have heard good things about you.'
    : 'I have heard talk of you, and none of it good.';
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

/**
 * `ask <npc> about <topic>`: a dialogue choice. The NPC replies; the first time, the answer moves its
 * disposition by the topic's delta (kindness warms, insolence cools).
 */
function answer(ctx: SimContext, userId: string, npc: NpcTemplate, query: string): void {
  const offered = topicsOf(ctx, userId, npc);
  const found = matchByName(offered, query, (t) => [t.id, t.id.replace(/_/g, ' '), t.ask]);
  if (!found) throw reject('NO_SUCH_TOPIC', `${npc.name} has nothing to say about "${query}".`);
  const topic = npc.topics[found.id];
  ctx.emit({
    type: 'npc.answered',
    npc: { name: npc.name },
    ask: topic.ask,
    text: topic.reply,
    to: { userId },
  });
  const key = `${npc.ref}#${found.id}`;
  const journal = ctx.journal(userId);
  if (journal.asked.has(key)) return;
  journal.asked.add(key);
  if (topic.disposition !== 0) adjustDisposition(ctx, userId, npc, 'dialogue', topic.disposition, found.id);
}

/**
 * `talk`: the NPC greets the player according to disposition, then (unless wary) lists the quests it can
 * give them (remembered for a bare `accept`), what it sells and what they can ask about, after a line about a
 * quest it takes part in (`questLineFor`). Counts for "talk" objectives and (re)starts an escort of this NPC. With `topic`, the
 * player asks about that instead (a dialogue choice).
 */
export function talk(ctx: SimContext, userId: string, query: string, topic?: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const npc = findNpc(ctx, player.roomRef, query);
  if (topic) return answer(ctx, userId, npc, topic);
  const quests = ctx.journal(userId).quests;
  const ofNpc = (status: string) => npc.offers.filter((ref) => quests.get(ref)?.status === status);
  const disposition = dispositionOf(ctx, userId, npc);
  ctx.emit({
    type: 'npc.said',
    npc: { name: npc.name },
    text: npc.greetings[disposition],
    disposition,
    to: { userId },
  });
  const heard = heardOf(ctx, userId, npc);
  if (heard)
    ctx.emit({ type: 'npc.said', npc: { name: npc.name }, text: heard, disposition, to: { userId } });
  const questLine = disposition === 'wary' ? undefined : questLineFor(ctx, userId, npc);
  if (questLine)
    ctx.emit({ type: 'npc.said', npc: { name: npc.name }, text: questLine, disposition, to: { userId } });
  if (disposition !== 'wary') {
    const offered = offeredQuests(ctx, userId, npc);
    // What a bare `accept` takes (questOffers.ts): the quests just offered, first first.
    if (offered.length > 0) ctx.journal(userId).offer = { npc: npc.ref, quests: offered.map((q) => q.ref) };
    const quests = offered.map((q) => ({ ref: q.ref, name: q.name }));
    const wares = npc.sells.map((s) => ({
      ref: s.item,
      name: ctx.world.items.get(s.item)!.name,
      price: s.price,
    }));
    const topics = topicsOf(ctx, userId, npc);
    if (quests.length > 0 || wares.length > 0 || topics.length > 0)
      ctx.emit({ type: 'npc.offers', npc: { name: npc.name }, quests, wares, topics, to: { userId } });
  }
  recordObjective(ctx, userId, 'talk', npc.ref);
  startEscorts(ctx, player, npc.ref);
  improve(ctx, player, 'lore');
  ctx.publish({ type: 'npc.conversation', areaId: ctx.area.id, userId, npc: npc.ref, disposition });
  ctx.consult?.({
    kind: 'npc.talk',
    userId,
    npc: npc.ref,
    disposition,
    activeQuests: ofNpc('active'),
    completedQuests: ofNpc('completed'),
  });
  companionSpeaks(ctx, player, 'greet');
}
