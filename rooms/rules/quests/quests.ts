import type { Objective } from '../../content/schemas';
import type { NpcTemplate, QuestDef, World } from '../../content/world';
import type { PlayerState } from '../../state/PlayerState';
import { type QuestProgress, type SimContext, matchByName, requireAlive, requirePlayer } from '../context';
import { BOND_POINTS, bondCompanion, companionSpeaks, shareMoment } from '../companions';
import { adjustDisposition, dispositionOf, npcsIn } from '../disposition';
import { reject } from '../errors';
import type { ObjectiveView } from '../../text/events';
import { addItem, countOf, removeItem } from '../inventory';
import { gainXp } from '../progression';
import { counted } from '../../text/words';
import { improve } from '../skills';
import { credit } from '../purse';

/**
 * Quests: accept from the giver NPC, progress through kills, visits and talks (collect objectives count the
 * inventory), complete at the giver for rewards. Completing consumes collected items in the same step.
 */

/** How many an objective needs. */
function needed(objective: Objective): number {
  return objective.kind === 'kill' || objective.kind === 'collect' ? objective.count : 1;
}

/** The player-facing wording of an objective. */
export function objectiveText(world: World, objective: Objective): string {
  switch (objective.kind) {
    case 'kill': {
      const creature = world.creatures.get(objective.creature)!;
      return `Defeat ${counted(objective.count, creature.name, creature.plural)}`;
    }
    case 'collect': {
      const item = world.items.get(objective.item)!;
      return `Collect ${counted(objective.count, item.name, item.plural)}`;
    }
    case 'visit':
      return `Visit ${world.rooms.get(objective.room)!.name}`;
    case 'talk':
      return `Talk to ${world.npcs.get(objective.npc)!.name}`;
    case 'escort':
      return `Escort ${world.npcs.get(objective.npc)!.name} safely to ${world.rooms.get(objective.to)!.name}`;
    case 'riddle':
      return `Answer ${world.npcs.get(objective.npc)!.name}'s riddle: "${objective.question}"`;
  }
}

/** Progress on each objective of `quest` for this player. */
export function objectiveViews(
  world: World,
  player: PlayerState,
  quest: QuestDef,
  progress: QuestProgress,
): ObjectiveView[] {
  return quest.objectives.map((objective, i) => {
    const need = needed(objective);
    const have = Math.min(
      need,
      objective.kind === 'collect' ? countOf(player, objective.item) : (progress.counts[i] ?? 0),
    );
    return { text: objectiveText(world, objective), have, need, done: have >= need };
  });
}

/** A day, for daily quests. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** True when the player may take `quest` (again): never taken, or a daily quest last done a day ago. */
function open(ctx: SimContext, quest: QuestDef, progress: QuestProgress | undefined): boolean {
  if (!progress) return true;
  return (
    quest.repeatable === 'daily' &&
    progress.status === 'completed' &&
    ctx.now() - (progress.completedAt ?? 0) >= DAY_MS
  );
}

/**
 * The quest that closed this branch for the player: one it `excludes` (or that excludes it) which they have
 * taken, active or completed. Undefined while the branch is open.
 */
export function closedBy(ctx: SimContext, userId: string, quest: QuestDef): QuestDef | undefined {
  const journal = ctx.journal(userId).quests;
  for (const ref of journal.keys()) {
    const taken = ctx.world.quests.get(ref);
    if (taken && (quest.excludes.includes(ref) || taken.excludes.includes(quest.ref))) return taken;
  }
  return undefined;
}

/** Quests `npc` would give this player now: not started (or a daily one due again), prerequisites done, branch open. */
export function offeredQuests(ctx: SimContext, userId: string, npc: NpcTemplate): QuestDef[] {
  const journal = ctx.journal(userId).quests;
  return npc.offers
    .map((ref) => ctx.world.quests.get(ref)!)
    .filter(
      (quest) =>
        open(ctx, quest, journal.get(quest.ref)) &&
        quest.requires.every((r) => journal.get(r)?.status === 'completed') &&
        !closedBy(ctx, userId, quest),
    );
}

function findQuest(ctx: SimContext, query: string, among: QuestDef[]): QuestDef {
  const quest = matchByName(among, query, (q) => [q.ref, q.id, q.name]);
  if (!quest) throw reject('NO_SUCH_QUEST', `No quest called "${query}" is available here.`);
  return quest;
}

/** `quest accept`: takes a quest from its giver, who must be in the room and not wary of the player. */
export function acceptQuest(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const givers = npcsIn(ctx, player.roomRef);
  const quest = findQuest(
    ctx,
    query,
    givers.flatMap((npc) => npc.offers.map((ref) => ctx.world.quests.get(ref)!)),
  );
  const journal = ctx.journal(userId).quests;
  const existing = journal.get(quest.ref);
  if (existing?.status === 'active') throw reject('QUEST_ACTIVE', `You are already on "${quest.name}".`);
  if (existing?.status === 'completed' && !open(ctx, quest, existing)) {
    throw quest.repeatable === 'daily'
      ? reject('QUEST_DONE', `You have done "${quest.name}" today; come back tomorrow.`)
      : reject('QUEST_DONE', `You have already completed "${quest.name}".`);
  }
  const giver = ctx.world.npcs.get(quest.giver)!;
  if (dispositionOf(ctx, userId, giver) === 'wary')
    throw reject('NPC_REFUSES', `${giver.name} will not trust you with that.`);
  if (!quest.requires.every((r) => journal.get(r)?.status === 'completed')) {
    throw reject('QUEST_LOCKED', `"${quest.name}" is not open to you yet.`);
  }
  const rival = closedBy(ctx, userId, quest);
  if (rival) throw reject('QUEST_CLOSED', `You chose "${rival.name}"; "${quest.name}" is closed to you.`);
  const progress: QuestProgress = { status: 'active', counts: quest.objectives.map(() => 0) };
  journal.set(quest.ref, progress);
  ctx.publish({ type: 'quest.accepted', areaId: ctx.area.id, userId, quest: quest.ref, giver: giver.ref });
  ctx.emit({
    type: 'quest.accepted',
    quest: quest.name,
    objectives: objectiveViews(ctx.world, player, quest, progress),
    to: { userId },
  });
  ctx.ruleEvents.publish({ type: 'questAccepted', userId, quest: quest.ref });
}

/**
 * Quest objectives listen to the other rules (rule events): a kill, a visit, a talk, an escort brought home and a
 * riddle answered each count toward every active quest with a matching objective.
 */
export function countObjectives(ctx: SimContext): void {
  const bus = ctx.ruleEvents;
  bus.subscribe('killed', (e) => recordObjective(ctx, e.userId, 'kill', e.creature));
  bus.subscribe('visited', (e) => recordObjective(ctx, e.userId, 'visit', e.roomRef));
  bus.subscribe('talked', (e) => recordObjective(ctx, e.userId, 'talk', e.npc));
  bus.subscribe('escorted', (e) => recordObjective(ctx, e.userId, 'escort', e.npc));
  bus.subscribe('answered', (e) => recordObjective(ctx, e.userId, 'riddle', e.npc));
}

/** Counts a kill, visit, talk, escort or riddle toward every active quest with a matching objective. */
function recordObjective(
  ctx: SimContext,
  userId: string,
  kind: 'kill' | 'visit' | 'talk' | 'escort' | 'riddle',
  ref: string,
): void {
  const player = ctx.state.players.get(userId);
  if (!player) return;
  for (const [questRef, progress] of ctx.journal(userId).quests) {
    if (progress.status !== 'active') continue;
    const quest = ctx.world.quests.get(questRef)!;
    let changed = false;
    quest.objectives.forEach((objective, i) => {
      const target = objectiveTarget(objective);
      if (objective.kind !== kind || target !== ref || (progress.counts[i] ?? 0) >= needed(objective)) return;
      progress.counts[i] = (progress.counts[i] ?? 0) + 1;
      changed = true;
    });
    if (!changed) continue;
    const views = objectiveViews(ctx.world, player, quest, progress);
    ctx.emit({ type: 'quest.progress', quest: quest.name, objectives: views, to: { userId } });
    if (views.every((o) => o.done)) {
      const giver = ctx.world.npcs.get(quest.giver)!;
      const atGiver = giver.room === player.roomRef;
      ctx.emit({ type: 'quest.ready', quest: quest.name, giver: giver.name, atGiver, to: { userId } });
    }
  }
}

/** What a kill, visit, talk, escort or riddle objective is about (collect objectives count the inventory). */
function objectiveTarget(objective: Objective): string | undefined {
  if (objective.kind === 'kill') return objective.creature;
  if (objective.kind === 'visit') return objective.room;
  if (objective.kind === 'collect') return undefined;
  return objective.npc;
}

/** `quest progress`: reports one quest (or all active ones). */
export function reportQuests(ctx: SimContext, userId: string, query?: string): void {
  const player = requirePlayer(ctx, userId);
  const journal = ctx.journal(userId).quests;
  const active = [...journal.entries()]
    .filter(([, p]) => p.status === 'active')
    .map(([ref]) => ctx.world.quests.get(ref)!);
  const quests = query ? [findQuest(ctx, query, active)] : active;
  if (quests.length === 0) throw reject('NO_ACTIVE_QUESTS', 'You have no active quests.');
  for (const quest of quests) {
    ctx.emit({
      type: 'quest.progress',
      quest: quest.name,
      objectives: objectiveViews(ctx.world, player, quest, journal.get(quest.ref)!),
      to: { userId },
    });
  }
}

/**
 * `quest complete`: at the giver, with every objective met. Collect objectives' items are handed over, then
 * rewards (xp, currency, items, a companion) are granted, all in one synchronous step.
 */
export function completeQuest(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const journal = ctx.journal(userId).quests;
  const active = [...journal.entries()]
    .filter(([, p]) => p.status === 'active')
    .map(([ref]) => ctx.world.quests.get(ref)!);
  const quest = findQuest(ctx, query, active);
  const progress = journal.get(quest.ref)!;
  const giver = ctx.world.npcs.get(quest.giver)!;
  if (giver.room !== player.roomRef)
    throw reject('QUEST_GIVER_ABSENT', `Return to ${giver.name} to complete "${quest.name}".`);
  if (!objectiveViews(ctx.world, player, quest, progress).every((o) => o.done)) {
    throw reject('QUEST_INCOMPLETE', `"${quest.name}" is not finished yet.`);
  }
  for (const objective of quest.objectives) {
    if (objective.kind === 'collect') removeItem(player, objective.item, objective.count);
  }
  progress.status = 'completed';
  progress.completedAt = ctx.now();
  const rewards = quest.rewards;
  for (const reward of rewards.items) addItem(player, reward.item, reward.qty);
  const offered = rewards.companion ? ctx.world.companions.get(rewards.companion) : undefined;
  const companion = offered && !player.companion.ref ? offered : undefined;
  ctx.emit({
    type: 'quest.completed',
    quest: quest.name,
    xp: rewards.xp,
    soft: rewards.soft,
    items: rewards.items.map((r) => `${ctx.world.items.get(r.item)!.name} x${r.qty}`),
    ...(companion ? { companion: companion.name } : {}),
    to: { userId },
  });
  if (rewards.soft > 0) credit(ctx, player, rewards.soft, `quest:${quest.ref}`);
  gainXp(ctx, player, rewards.xp);
  improve(ctx, player, 'lore');
  adjustDisposition(ctx, userId, giver, 'questCompleted', undefined, quest.ref);
  ctx.publish({
    type: 'quest.completed',
    areaId: ctx.area.id,
    userId,
    quest: quest.ref,
    xp: rewards.xp,
    soft: rewards.soft,
  });
  if (companion) bondCompanion(ctx, player, companion);
  else if (player.companion.ref) {
    shareMoment(ctx, player, 'quest', `completed "${quest.name}" for ${giver.name}`, BOND_POINTS.questDone);
    companionSpeaks(ctx, player, 'questDone');
  }
  if (offered && !companion && offered.ref !== player.companion.ref) {
    ctx.journal(userId).pendingCompanion = offered.ref;
    ctx.emit({
      type: 'companion.offered',
      companion: offered.name,
      species: offered.species,
      current: player.companion.name,
      to: { userId },
    });
  }
}
