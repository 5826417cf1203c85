import type { Objective } from '../../content/schemas';
import { PlayerStatus, type PlayerState } from '../../state/PlayerState';
import type { SimContext } from '../context';
import { creatureActor } from '../creatures/creatureNames';

/**
 * Escort objectives (`{ kind: escort, npc, to }`): the NPC falls in behind the player who took the quest
 * (when they stand together, at `quest accept` or by talking to it later), follows them from room to room
 * and must reach `to` alive. Creatures fighting the player may strike the escorted NPC instead; hurt too
 * badly, it limps home and the objective waits for another try. Each player escorts their own charge (the
 * NPC stays at its post for everyone else); the escort ends if the player dies or leaves the area.
 */

/** Health of someone being escorted. */
export const ESCORT_HEALTH = 24;
/** Chance, per creature fighting the player and per round, that it goes for the escorted NPC instead. */
export const ESCORT_HIT_CHANCE = 0.3;

/** An escort under way (held in the player's journal for as long as they stay in this area). */
export interface Escort {
  quest: string;
  npc: string;
  to: string;
  roomRef: string;
  health: number;
  maxHealth: number;
}

type EscortObjective = Extract<Objective, { kind: 'escort' }>;

function unmetEscorts(ctx: SimContext, userId: string): Array<{ quest: string; objective: EscortObjective }> {
  const out: Array<{ quest: string; objective: EscortObjective }> = [];
  for (const [ref, progress] of ctx.journal(userId).quests) {
    if (progress.status !== 'active') continue;
    ctx.world.quests.get(ref)!.objectives.forEach((objective, i) => {
      if (objective.kind === 'escort' && (progress.counts[i] ?? 0) < 1) out.push({ quest: ref, objective });
    });
  }
  return out;
}

/**
 * Starts the escort of an NPC in the player's room (only `npcRef`, when given) whose escort objective is
 * active and not yet met.
 */
export function startEscorts(ctx: SimContext, player: PlayerState, npcRef?: string): void {
  const journal = ctx.journal(player.userId);
  if (journal.escort) return;
  const found = unmetEscorts(ctx, player.userId).find(
    ({ objective }) =>
      (!npcRef || objective.npc === npcRef) && ctx.world.npcs.get(objective.npc)!.room === player.roomRef,
  );
  if (!found) return;
  const { quest, objective } = found;
  journal.escort = {
    quest,
    npc: objective.npc,
    to: objective.to,
    roomRef: player.roomRef,
    health: ESCORT_HEALTH,
    maxHealth: ESCORT_HEALTH,
  };
  ctx.emit({
    type: 'escort.started',
    npc: { name: ctx.world.npcs.get(objective.npc)!.name },
    destination: ctx.world.rooms.get(objective.to)!.name,
    to: { userId: player.userId },
  });
}

/**
 * Escorts start on cue (rule events): when the player takes a quest beside its escort NPC (`questAccepted`), or
 * talks to that NPC later (`talked`, after the talk counted toward the quest).
 */
export function startEscortsOnCue(ctx: SimContext): void {
  const playerOf = (userId: string) => ctx.state.players.get(userId);
  ctx.ruleEvents.subscribe('questAccepted', ({ userId }) => {
    const player = playerOf(userId);
    if (player) startEscorts(ctx, player);
  });
  ctx.ruleEvents.subscribe('talked', ({ userId, npc }) => {
    const player = playerOf(userId);
    if (player) startEscorts(ctx, player, npc);
  });
}

/** After the player entered a room from `from`: their charge follows, and arriving at its destination meets the objective. */
export function escortFollows(ctx: SimContext, player: PlayerState, from: string): void {
  const journal = ctx.journal(player.userId);
  const escort = journal.escort;
  if (!escort || escort.roomRef !== from || from === player.roomRef) return;
  escort.roomRef = player.roomRef;
  const npc = { name: ctx.world.npcs.get(escort.npc)!.name };
  if (player.roomRef !== escort.to) {
    ctx.emit({ type: 'escort.followed', npc, to: { userId: player.userId } });
    return;
  }
  journal.escort = undefined;
  ctx.emit({
    type: 'escort.arrived',
    npc,
    destination: ctx.world.rooms.get(escort.to)!.name,
    to: { userId: player.userId },
  });
  ctx.ruleEvents.publish({ type: 'escorted', userId: player.userId, npc: escort.npc });
}

/** Ends the player's escort without success: they died, or they are leaving the area. */
export function abandonEscort(ctx: SimContext, player: PlayerState, reason: 'died' | 'left'): void {
  const journal = ctx.journal(player.userId);
  if (!journal.escort) return;
  const npc = { name: ctx.world.npcs.get(journal.escort.npc)!.name };
  journal.escort = undefined;
  ctx.emit({ type: 'escort.abandoned', npc, reason, area: ctx.area.name, to: { userId: player.userId } });
}

/**
 * Part of a combat round: each creature fighting an escorting player may strike the NPC instead
 * (`strike(attack)` rolls a blow against no armour). At 0 health the escort fails.
 */
export function escortsUnderAttack(ctx: SimContext, strike: (attack: number) => number | undefined): void {
  ctx.state.players.forEach((player) => {
    if (player.status !== PlayerStatus.fighting) return;
    const journal = ctx.journal(player.userId);
    const escort = journal.escort;
    if (!escort || escort.roomRef !== player.roomRef) return;
    const npc = { name: ctx.world.npcs.get(escort.npc)!.name };
    for (const creature of ctx.state.creatures.values()) {
      if (creature.target !== player.userId || creature.roomRef !== player.roomRef) continue;
      if (!ctx.rng.chance(ESCORT_HIT_CHANCE)) continue;
      const attack = ctx.world.creatures.get(creature.ref)!.attack;
      const damage = strike(attack);
      if (damage === undefined) continue;
      escort.health = Math.max(0, escort.health - damage);
      ctx.emit({
        type: 'escort.hurt',
        npc,
        creature: creatureActor(ctx, creature),
        damage,
        remaining: escort.health,
        to: { roomRef: player.roomRef },
      });
      if (escort.health > 0) continue;
      journal.escort = undefined;
      ctx.emit({ type: 'escort.failed', npc, to: { userId: player.userId } });
      return;
    }
  });
}
