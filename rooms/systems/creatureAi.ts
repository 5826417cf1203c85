import { type Emotion, type CreatureState } from '../state/AreaState';
import { PlayerStatus } from '../state/PlayerState';
import { type SimContext, creaturesIn, playersIn } from './context';
import { type EmotionEvent, behaviourOf, nextEmotion } from './emotions';

/**
 * Creature behaviour: applies emotion events to a creature (`feel`) and, once per AI step, acts on the
 * behaviour its emotion dictates (`runCreatureAi`): attack, flee, approach (go up to a player) or ignore
 * (wander when the template has `behaviors.wander`).
 */

/** Applies `event` to `creature`; `cause` is the player behind it (who entered, who attacked). */
export function feel(ctx: SimContext, creature: CreatureState, event: EmotionEvent, cause?: string): void {
  const template = ctx.world.creatures.get(creature.ref);
  const mind = ctx.minds.get(creature.id);
  if (!template || !mind) return;
  if (event !== 'TIME_PASSES') mind.quietSteps = 0;
  const next = nextEmotion(template.temperament, creature.emotion as Emotion, event);
  if (next !== creature.emotion) {
    creature.emotion = next;
    ctx.emit({
      type: 'creature.emotion',
      creature: { name: creature.name },
      emotion: next,
      to: { roomRef: creature.roomRef },
    });
  }
  const behaviour = behaviourOf(next);
  if (
    behaviour === 'attack' &&
    cause &&
    !creature.target &&
    ctx.state.players.get(cause)?.roomRef === creature.roomRef
  ) {
    engage(ctx, creature, cause);
  }
  if (behaviour !== 'attack') creature.target = '';
}

/** Every creature in `roomRef` notices `event` (a player entering, an ally dying). */
export function roomFeels(ctx: SimContext, roomRef: string, event: EmotionEvent, cause?: string): void {
  for (const creature of creaturesIn(ctx, roomRef)) feel(ctx, creature, event, cause);
}

/** The creature starts fighting `userId`; a player not yet fighting is pulled into the fight. */
export function engage(ctx: SimContext, creature: CreatureState, userId: string): void {
  const player = ctx.state.players.get(userId);
  if (!player || player.status === PlayerStatus.dead) return;
  creature.target = userId;
  if (player.status !== PlayerStatus.fighting) {
    player.status = PlayerStatus.fighting;
    player.target = creature.id;
  }
  ctx.emit({
    type: 'combat.started',
    attacker: { name: creature.name },
    target: { name: player.name, userId },
    to: { roomRef: creature.roomRef },
  });
}

/** The exits of a creature's room that stay inside this area, as [direction, roomRef] pairs. */
function exitsInArea(ctx: SimContext, roomRef: string): Array<[string, string]> {
  const room = ctx.world.rooms.get(roomRef);
  return Object.entries(room?.exits ?? {}).filter(
    (exit): exit is [string, string] => ctx.world.rooms.get(exit[1] as string)?.areaId === ctx.area.id,
  );
}

/** Moves a creature through a random exit that stays inside this area; false when it has nowhere to go. */
export function moveCreature(ctx: SimContext, creature: CreatureState): boolean {
  const exits = exitsInArea(ctx, creature.roomRef);
  if (exits.length === 0) return false;
  const [direction, target] = ctx.rng.pick(exits);
  walk(ctx, creature, direction, target);
  return true;
}

/**
 * The `approach` behaviour (CURIOUS, FRIENDLY): goes up to a player in its room, once per player, or else
 * walks into a neighbouring room of the area where a player is.
 */
export function approach(ctx: SimContext, creature: CreatureState): void {
  const mind = ctx.minds.get(creature.id);
  if (!mind) return;
  const alive = (roomRef: string) => playersIn(ctx, roomRef).filter((p) => p.status !== PlayerStatus.dead);
  const here = alive(creature.roomRef);
  if (here.length > 0) {
    if (here.some((p) => p.userId === mind.approached)) return;
    const player = ctx.rng.pick(here);
    mind.approached = player.userId;
    ctx.emit({
      type: 'creature.approached',
      creature: { name: creature.name },
      target: { name: player.name, userId: player.userId },
      emotion: creature.emotion,
      to: { roomRef: creature.roomRef },
    });
    return;
  }
  const towards = exitsInArea(ctx, creature.roomRef).filter(([, roomRef]) => alive(roomRef).length > 0);
  if (towards.length > 0) walk(ctx, creature, ...ctx.rng.pick(towards));
}

function walk(ctx: SimContext, creature: CreatureState, direction: string, target: string): void {
  releaseFrom(ctx, creature);
  ctx.emit({
    type: 'creature.left',
    creature: { name: creature.name },
    direction,
    to: { roomRef: creature.roomRef },
  });
  creature.roomRef = target;
  ctx.emit({
    type: 'creature.arrived',
    creature: { name: creature.name },
    to: { roomRef: creature.roomRef },
  });
}

/** Ends every fight the creature is part of (it fled, died or despawned). */
export function releaseFrom(ctx: SimContext, creature: CreatureState): void {
  creature.target = '';
  ctx.state.players.forEach((player) => {
    if (player.target === creature.id) {
      player.target = '';
      if (player.status === PlayerStatus.fighting) player.status = PlayerStatus.idle;
    }
  });
}

/** One AI step for every creature in the area. */
export function runCreatureAi(ctx: SimContext): void {
  for (const creature of [...ctx.state.creatures.values()]) {
    const template = ctx.world.creatures.get(creature.ref);
    const mind = ctx.minds.get(creature.id);
    if (!template || !mind || creature.health <= 0) continue;
    mind.quietSteps += 1;
    mind.wanderSteps += 1;
    if (mind.quietSteps >= template.calmAfter && !creature.target) {
      mind.quietSteps = 0;
      feel(ctx, creature, 'TIME_PASSES');
    }
    const behaviour = behaviourOf(creature.emotion as Emotion);
    if (behaviour === 'attack') actAggressively(ctx, creature, mind.attackers);
    else if (behaviour === 'flee') moveCreature(ctx, creature);
    else if (behaviour === 'approach') approach(ctx, creature);
    else if (
      behaviour === 'ignore' &&
      template.behaviors.wander &&
      mind.wanderSteps >= template.behaviors.wander.every
    ) {
      mind.wanderSteps = 0;
      if (playersIn(ctx, creature.roomRef).length === 0) moveCreature(ctx, creature);
    }
  }
}

function actAggressively(ctx: SimContext, creature: CreatureState, attackers: Set<string>): void {
  const current = creature.target ? ctx.state.players.get(creature.target) : undefined;
  if (current && current.roomRef === creature.roomRef && current.status !== PlayerStatus.dead) return;
  creature.target = '';
  const present = playersIn(ctx, creature.roomRef).filter((p) => p.status !== PlayerStatus.dead);
  // ALERT creatures go for anyone; DEFENSIVE ones only for whoever hurt them.
  const candidates = creature.emotion === 'ALERT' ? present : present.filter((p) => attackers.has(p.userId));
  if (candidates.length > 0) engage(ctx, creature, ctx.rng.pick(candidates).userId);
}
