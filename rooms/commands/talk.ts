import type { NpcTemplate } from '../content/world';
import { type SimContext, matchByName, requireAlive, requirePlayer } from '../rules/context';
import { companionSpeaks } from '../rules/companions';
import { adjustDisposition, dispositionOf, findNpc, topicsOf } from '../rules/disposition';
import { reject } from '../rules/errors';
import { questLineFor } from '../rules/quests/npcQuestLines';
import { offeredQuests } from '../rules/quests/quests';
import { improve } from '../rules/skills';

/**
 * `talk` and `ask <npc> about <topic>`: a conversation with an NPC, in the words its disposition toward the player
 * chooses (rules/disposition.ts), with the quests it offers (rules/quests) and what the player may ask about.
 */

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
 * quest it takes part in (`questLineFor`). Tells the rules it `talked` ("talk" objectives count it, an escort of this
 * NPC starts). With `topic`, the player asks about that instead (a dialogue choice).
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
  ctx.ruleEvents.publish({ type: 'talked', userId, npc: npc.ref });
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
