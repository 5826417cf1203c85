import type { CreatureState } from '../state/AreaState';
import { PlayerStatus, type PlayerState } from '../state/PlayerState';
import { type SimContext, requireAlive, requirePlayer } from './context';
import { BOND_POINTS, companionSpeaks, companionStrike, shareMoment } from './companions';
import { engage, feel, releaseFrom, roomFeels } from './creatures/creatureAi';
import { adjustDisposition, npcsIn } from './disposition';
import { isHealthLow } from './creatures/emotions';
import { reject } from './errors';
import { dropOnFloor } from './items';
import { enterRoom, leaveRoom } from './movement';
import { attackOf, defenseOf, gainXp } from './progression';
import type { Rng } from './random';
import { killPlayer } from './vitals';
import { groupMatesIn } from './groups';
import { improve } from './skills';
import { DATA_BEHAVIOURS } from './creatures/creatureBehaviours';
import { escortsUnderAttack } from './quests/escorts';
import { creatureActor, creatureLabel, findCreature } from './creatures/creatureNames';

/**
 * Turn-based combat. `attack` only picks a fight; blows are exchanged in `combatRound`, which the room runs
 * every `tuning.combatEvery` ticks: each fighting player strikes (their companion may join in), then each
 * creature with a target strikes back. Rolls come from the area's seeded RNG.
 */

/** Chance to hit: 70% ± 5% per point of attack over defense, kept within 10%..95%. */
export function hitChance(attack: number, defense: number): number {
  return Math.max(0.1, Math.min(0.95, 0.7 + 0.05 * (attack - defense)));
}

/** One blow: undefined on a miss, else damage (attack + 0..2 − half the defense rounded up, at least 1). */
export function rollStrike(rng: Rng, attack: number, defense: number): number | undefined {
  if (!rng.chance(hitChance(attack, defense))) return undefined;
  return Math.max(1, attack + rng.int(0, 2) - Math.ceil(defense / 2));
}

/** Chance a flee succeeds. */
export const FLEE_CHANCE = 0.6;

/** `attack`/`fight`: starts fighting a creature in the room. */
export function attack(ctx: SimContext, userId: string, query: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  const creature = findCreature(ctx, player.roomRef, query);
  if (!creature) throw reject('NO_SUCH_TARGET', `There is no "${query}" here to fight.`);
  if (player.target === creature.id)
    throw reject('ALREADY_FIGHTING', `You are already fighting the ${creatureLabel(ctx, creature)}.`);
  player.status = PlayerStatus.fighting;
  player.target = creature.id;
  ctx.minds.get(creature.id)?.attackers.add(userId);
  ctx.emit({
    type: 'combat.started',
    attacker: { name: player.name, userId },
    target: creatureActor(ctx, creature),
    to: { roomRef: player.roomRef },
  });
  feel(ctx, creature, 'ATTACKED', userId);
  for (const npc of npcsIn(ctx, player.roomRef)) {
    if (npc.protects.includes(creature.ref))
      adjustDisposition(ctx, userId, npc, 'attackedProtected', undefined, creature.ref);
  }
}

/** `flee`: tries to escape a fight through a random exit inside the area. */
export function flee(ctx: SimContext, userId: string): void {
  const player = requirePlayer(ctx, userId);
  requireAlive(player);
  if (player.status !== PlayerStatus.fighting) throw reject('NOT_FIGHTING', 'You are not fighting anything.');
  const exits = Object.entries(ctx.world.rooms.get(player.roomRef)!.exits).filter(
    ([, ref]) => ctx.world.rooms.get(ref as string)?.areaId === ctx.area.id,
  );
  if (exits.length === 0 || !ctx.rng.chance(FLEE_CHANCE)) {
    ctx.emit({ type: 'flee.failed', actor: { name: player.name, userId }, to: { roomRef: player.roomRef } });
    return;
  }
  const [direction, target] = ctx.rng.pick(exits);
  disengage(ctx, player);
  ctx.emit({ type: 'flee.succeeded', actor: { name: player.name, userId }, direction, to: { userId } });
  leaveRoom(ctx, player, direction);
  enterRoom(ctx, player, target as string);
}

/** Ends the player's fights: their own target and every creature targeting them. */
export function disengage(ctx: SimContext, player: PlayerState): void {
  player.target = '';
  if (player.status === PlayerStatus.fighting) player.status = PlayerStatus.idle;
  ctx.state.creatures.forEach((creature) => {
    if (creature.target === player.userId) creature.target = '';
  });
}

/** One round of every fight in the area. */
export function combatRound(ctx: SimContext): void {
  // A creature that sprang an ambush strikes before anyone else this round.
  for (const creature of [...ctx.state.creatures.values()]) {
    const mind = ctx.minds.get(creature.id);
    if (!mind?.firstStrike) continue;
    mind.firstStrike = false;
    const victim = ctx.state.players.get(creature.target);
    if (victim && victim.roomRef === creature.roomRef && victim.status !== PlayerStatus.dead)
      creatureStrikes(ctx, creature, victim);
  }
  for (const player of [...ctx.state.players.values()]) {
    if (player.status !== PlayerStatus.fighting || !player.target) continue;
    const creature = ctx.state.creatures.get(player.target);
    if (!creature || creature.roomRef !== player.roomRef || creature.health <= 0) {
      disengage(ctx, player);
      continue;
    }
    // Being attacked provokes a creature that was not fighting back yet.
    if (!creature.target) engage(ctx, creature, player.userId);
    playerStrikes(ctx, player, creature);
  }
  for (const creature of [...ctx.state.creatures.values()]) {
    const player = creature.target ? ctx.state.players.get(creature.target) : undefined;
    if (!player || player.roomRef !== creature.roomRef || player.status === PlayerStatus.dead) continue;
    creatureStrikes(ctx, creature, player);
  }
  escortsUnderAttack(ctx, (attack) => rollStrike(ctx.rng, attack, 0));
}

function playerStrikes(ctx: SimContext, player: PlayerState, creature: CreatureState): void {
  const template = ctx.world.creatures.get(creature.ref)!;
  const attacker = { name: player.name, userId: player.userId };
  const damage = rollStrike(ctx.rng, attackOf(ctx.world, player), template.defense);
  if (damage === undefined) {
    ctx.emit({
      type: 'combat.missed',
      attacker,
      target: creatureActor(ctx, creature),
      to: { roomRef: player.roomRef },
    });
  } else {
    const wasLow = isHealthLow(creature.health, creature.maxHealth);
    hurtCreature(ctx, creature, damage, player);
    ctx.emit({
      type: 'combat.hit',
      attacker,
      target: creatureActor(ctx, creature),
      damage,
      remaining: creature.health,
      to: { roomRef: player.roomRef },
    });
    feelHurt(ctx, creature, wasLow, player);
  }
  if (creature.health > 0) {
    const wasLow = isHealthLow(creature.health, creature.maxHealth);
    const extra = companionStrike(ctx, player, creatureLabel(ctx, creature));
    if (extra > 0) {
      hurtCreature(ctx, creature, extra, player);
      feelHurt(ctx, creature, wasLow, player);
    }
  }
  if (creature.health <= 0) creatureDies(ctx, creature, player);
}

function hurtCreature(ctx: SimContext, creature: CreatureState, damage: number, by: PlayerState): void {
  creature.health = Math.max(0, creature.health - damage);
  ctx.minds.get(creature.id)?.attackers.add(by.userId);
}

/** After the blow is told: a boss may enter a new phase, and a creature whose health just dropped low feels it. */
function feelHurt(ctx: SimContext, creature: CreatureState, wasLow: boolean, by: PlayerState): void {
  const template = ctx.world.creatures.get(creature.ref)!;
  const mind = ctx.minds.get(creature.id);
  if (creature.health > 0 && mind) {
    for (const name of Object.keys(template.behaviors) as Array<keyof typeof DATA_BEHAVIOURS>) {
      DATA_BEHAVIOURS[name].onHurt?.(ctx, creature, mind, template);
    }
  }
  if (creature.health > 0 && !wasLow && isHealthLow(creature.health, creature.maxHealth))
    feel(ctx, creature, 'HEALTH_LOW', by.userId);
}

function creatureStrikes(ctx: SimContext, creature: CreatureState, player: PlayerState): void {
  const template = ctx.world.creatures.get(creature.ref)!;
  const target = { name: player.name, userId: player.userId };
  // A player who is attacked is in combat with the attacker (they strike back from the next round).
  if (!player.target) {
    player.status = PlayerStatus.fighting;
    player.target = creature.id;
  }
  const attack = template.attack + (ctx.minds.get(creature.id)?.bonusAttack ?? 0);
  const damage = rollStrike(ctx.rng, attack, defenseOf(ctx.world, player));
  if (damage === undefined) {
    ctx.emit({
      type: 'combat.missed',
      attacker: creatureActor(ctx, creature),
      target,
      to: { roomRef: creature.roomRef },
    });
    return;
  }
  const wasLow = isHealthLow(player.health, player.maxHealth);
  player.health = Math.max(0, player.health - damage);
  ctx.emit({
    type: 'combat.hit',
    attacker: creatureActor(ctx, creature),
    target,
    damage,
    remaining: player.health,
    to: { roomRef: creature.roomRef },
  });
  if (player.health <= 0) killPlayer(ctx, player, creatureActor(ctx, creature));
  else if (!wasLow && isHealthLow(player.health, player.maxHealth)) companionSpeaks(ctx, player, 'lowHealth');
}

/** A creature dies: loot drops, everyone who hurt it gets xp and kill credit, its allies take note. */
export function creatureDies(ctx: SimContext, creature: CreatureState, killer: PlayerState): void {
  const template = ctx.world.creatures.get(creature.ref)!;
  const mind = ctx.minds.get(creature.id);
  // Named while it is still in the room, so "the first speckled hen" dies, not "the speckled hen".
  const actor = creatureActor(ctx, creature);
  releaseFrom(ctx, creature);
  ctx.state.creatures.delete(creature.id);
  ctx.minds.delete(creature.id);
  if (mind) ctx.onCreatureRemoved(mind.spawnPoint);
  ctx.emit({
    type: 'creature.died',
    creature: actor,
    killer: { name: killer.name, userId: killer.userId },
    to: { roomRef: creature.roomRef },
  });
  const dropped: Array<{ name: string; qty: number }> = [];
  for (const loot of template.loot) {
    if (!ctx.rng.chance(loot.chance)) continue;
    dropOnFloor(ctx, creature.roomRef, loot.item, loot.qty);
    dropped.push({ name: ctx.world.items.get(loot.item)!.name, qty: loot.qty });
  }
  if (dropped.length > 0)
    ctx.emit({
      type: 'loot.dropped',
      creature: actor,
      items: dropped,
      to: { roomRef: creature.roomRef },
    });
  // Everyone who hurt it and their group mates in the room share the credit.
  const fighters = [killer.userId, ...(mind?.attackers ?? [])];
  const mates = fighters.flatMap((userId) =>
    groupMatesIn(ctx, userId, creature.roomRef).map((p) => p.userId),
  );
  const credited = [...new Set([...fighters, ...mates])].filter(
    (userId) => ctx.state.players.get(userId)?.roomRef === creature.roomRef,
  );
  for (const userId of credited) {
    const player = ctx.state.players.get(userId)!;
    gainXp(ctx, player, template.xp);
    improve(ctx, player, 'combat');
    ctx.ruleEvents.publish({ type: 'killed', userId, creature: creature.ref });
    shareMoment(ctx, player, 'fight', `defeated ${article(template.name)}`, BOND_POINTS.victory);
  }
  ctx.publish({
    type: 'creature.killed',
    areaId: ctx.area.id,
    roomRef: creature.roomRef,
    creature: creature.ref,
    userIds: credited,
  });
  roomFeels(ctx, creature.roomRef, 'ALLY_DIED');
}

/** "the cave rat": a creature's name as a memory tells it. */
function article(name: string): string {
  return /^(the|a|an)\s/i.test(name) ? name : `the ${name}`;
}
