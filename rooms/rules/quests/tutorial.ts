import type { Objective } from '../../content/schemas';
import type { QuestDef } from '../../content/world';
import { type SimContext, requirePlayer } from '../context';
import { npcsIn } from '../disposition';
import { stepTowards } from '../paths';
import { objectiveViews, offeredQuests } from './quests';
import { readyQuests } from './questOffers';

/**
 * `tutorial`: a short hint for where the player stands, as Evennia's tutorial world gives one per room. The room's
 * own advice comes from the world data (`tutorial:` on a room in `area.yml`; the first areas' rooms have one); the
 * next step comes from the player's quests: hand in a finished one, the next objective of an active one and which
 * way it lies, or who nearby has work.
 */

/** Said until a character takes their first quest, after every room description. */
export const NEWCOMER_HINT = 'New here? Type "tutorial" for a hint.';

/** The newcomer's line for `room.look`, or undefined once they have taken a quest. */
export function newcomerHint(ctx: SimContext, userId: string): string | undefined {
  return ctx.journal(userId).quests.size === 0 ? NEWCOMER_HINT : undefined;
}

/** "head west", "it is right here", "it lies in The Whisperwood". */
function wayTo(ctx: SimContext, from: string, to: string): string {
  if (from === to) return 'right here';
  const room = ctx.world.rooms.get(to)!;
  if (room.areaId !== ctx.area.id) return `in ${ctx.world.areas.get(room.areaId)!.name}`;
  const step = stepTowards(ctx, from, to);
  return step ? `${room.name}, head ${step[0]}` : room.name;
}

/** Where an objective is done: the NPC's room, the room to visit, or the nearest room the creature spawns in. */
function placeOf(ctx: SimContext, objective: Objective, from: string): string | undefined {
  if (objective.kind === 'visit') return objective.room;
  if (objective.kind === 'kill') {
    const rooms = [...ctx.world.rooms.values()].filter((r) =>
      r.spawns.some((s) => s.creature === objective.creature),
    );
    const here = rooms.filter((r) => r.areaId === ctx.area.id);
    return (here.find((r) => r.ref === from) ?? here[0] ?? rooms[0])?.ref;
  }
  if (objective.kind === 'collect') {
    const rooms = [...ctx.world.rooms.values()].filter((r) => r.items.some((i) => i.item === objective.item));
    return (rooms.find((r) => r.areaId === ctx.area.id) ?? rooms[0])?.ref;
  }
  return ctx.world.npcs.get(objective.npc)?.room;
}

/** What to do next for `quest` (its first objective not done yet). */
function nextObjective(ctx: SimContext, userId: string, quest: QuestDef): string | undefined {
  const player = requirePlayer(ctx, userId);
  const views = objectiveViews(ctx.world, player, quest, ctx.journal(userId).quests.get(quest.ref)!);
  const at = views.findIndex((view) => !view.done);
  if (at < 0) return undefined;
  const place = placeOf(ctx, quest.objectives[at], player.roomRef);
  return `For ${quest.name}: ${views[at].text}${place ? ` (${wayTo(ctx, player.roomRef, place)})` : ''}.`;
}

/** The next step for the player, from their quests and who has work nearby. */
function nextStep(ctx: SimContext, userId: string): string {
  const player = requirePlayer(ctx, userId);
  const [ready] = readyQuests(ctx, userId);
  if (ready) {
    const giver = ctx.world.npcs.get(ready.giver)!;
    return giver.room === player.roomRef
      ? `${ready.name} is done: type "complete" to hand it in to ${giver.name}.`
      : `${ready.name} is done: go back to ${giver.name} (${wayTo(ctx, player.roomRef, giver.room)}) and type "complete".`;
  }
  const journal = ctx.journal(userId).quests;
  for (const [ref, progress] of journal) {
    if (progress.status !== 'active') continue;
    const next = nextObjective(ctx, userId, ctx.world.quests.get(ref)!);
    if (next) return next;
  }
  const givers = ctx.area.roomRefs
    .flatMap((roomRef) => npcsIn(ctx, roomRef))
    .filter((npc) => offeredQuests(ctx, userId, npc).length > 0);
  const here = givers.find((npc) => npc.room === player.roomRef);
  if (here) return `${here.name} has work for you: "talk ${here.id.replace(/_/g, ' ')}", then "accept".`;
  const distance = (room: string) => {
    let steps = 0;
    for (let at = player.roomRef; at !== room && steps < 50; steps++) {
      const step = stepTowards(ctx, at, room);
      if (!step) return Infinity;
      at = step[1];
    }
    return steps;
  };
  const nearest = givers.sort((a, b) => distance(a.room) - distance(b.room))[0];
  if (nearest) return `${nearest.name} has work for you (${wayTo(ctx, player.roomRef, nearest.room)}).`;
  return 'Nobody nearby has work for you now: "map" shows the ways out of this area, toward new places.';
}

/** `tutorial`: the room's hint from the world data and the player's next step. */
export function tutorial(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  const room = ctx.world.rooms.get(player.roomRef)!;
  ctx.emit({
    type: 'tutorial',
    room: room.name,
    hint:
      room.tutorial ??
      'Nothing here needs explaining: "look" describes the room, "map" shows the way around.',
    next: nextStep(ctx, userId),
    to: { userId },
  });
}
