import type { CreatureTemplate } from '../../content/world';
import { type Emotion, type CreatureState } from '../../state/AreaState';
import { PlayerStatus } from '../../state/PlayerState';
import { type CreatureMind, type SimContext, creaturesIn, playersIn } from '../context';
import { type Behaviour, type EmotionEvent, behaviourOf, nextEmotion } from './emotions';
import { type CreatureActions, DATA_BEHAVIOURS } from './creatureBehaviours';
import { exitsInArea, stepTowards } from '../paths';
import { creatureActor, markArrival } from './creatureNames';

/**
 * Creature behaviour: applies emotion events to a creature (`feel`) and, once per AI step, acts on the
 * behaviour its emotion dictates (`EMOTION_BEHAVIOURS`: attack, flee, approach, ignore), then runs the
 * behaviours its template names in data (`DATA_BEHAVIOURS`: wander, pack, territorial, ...). A creature
 * with nothing to do and no `wander` walks back to its spawn room, so fled creatures do not pile up.
 */

/** Applies `event` to `creature`; `cause` is the player behind it (who entered, who attacked). */
export function feel(ctx: SimContext, creature: CreatureState, event: EmotionEvent, cause?: string): void {
  const template = ctx.world.creatures.get(creature.ref);
  const mind = ctx.minds.get(creature.id);
  // An ambusher lying in wait gives nothing away until it strikes.
  if (!template || !mind || mind.hidden) return;
  if (event !== 'TIME_PASSES') mind.quietSteps = 0;
  const next = nextEmotion(template.temperament, creature.emotion as Emotion, event);
  if (next !== creature.emotion) {
    creature.emotion = next;
    ctx.emit({
      type: 'creature.emotion',
      creature: creatureActor(ctx, creature),
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
  if (event === 'ATTACKED' && cause) {
    for (const name of Object.keys(template.behaviors) as Array<keyof typeof DATA_BEHAVIOURS>) {
      DATA_BEHAVIOURS[name].onAttacked?.(ctx, creature, cause, ACTIONS);
    }
  }
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
  if (player.status !== PlayerStatus.fighting || !player.target) {
    player.status = PlayerStatus.fighting;
    player.target = creature.id;
  }
  ctx.emit({
    type: 'combat.started',
    attacker: creatureActor(ctx, creature),
    target: { name: player.name, userId },
    to: { roomRef: creature.roomRef },
  });
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
 * walks into a neighbouring room where a player is, but never further than one room from its spawn room
 * (so a friendly hen does not follow a player through the whole village).
 */
export function approach(ctx: SimContext, creature: CreatureState, mind: CreatureMind): void {
  const alive = (roomRef: string) => playersIn(ctx, roomRef).filter((p) => p.status !== PlayerStatus.dead);
  const here = alive(creature.roomRef);
  if (here.length > 0) {
    if (here.some((p) => p.userId === mind.approached)) return;
    const player = ctx.rng.pick(here);
    mind.approached = player.userId;
    ctx.emit({
      type: 'creature.approached',
      creature: creatureActor(ctx, creature),
      target: { name: player.name, userId: player.userId },
      emotion: creature.emotion,
      to: { roomRef: creature.roomRef },
    });
    return;
  }
  const homeRange = new Set([mind.home, ...exitsInArea(ctx, mind.home).map(([, roomRef]) => roomRef)]);
  const towards = exitsInArea(ctx, creature.roomRef).filter(
    ([, roomRef]) => alive(roomRef).length > 0 && homeRange.has(roomRef),
  );
  if (towards.length > 0) walk(ctx, creature, ...ctx.rng.pick(towards));
  else goHome(ctx, creature, mind);
}

/** Walks a creature one room along `direction`, announcing where it went and where it came from. */
export function walk(ctx: SimContext, creature: CreatureState, direction: string, target: string): void {
  releaseFrom(ctx, creature);
  ctx.emit({
    type: 'creature.left',
    creature: creatureActor(ctx, creature),
    direction,
    to: { roomRef: creature.roomRef },
  });
  creature.roomRef = target;
  markArrival(ctx, creature);
  ctx.emit({
    type: 'creature.arrived',
    creature: creatureActor(ctx, creature),
    from: OPPOSITE[direction] ?? '',
    to: { roomRef: creature.roomRef },
  });
}

const OPPOSITE: Record<string, string> = {
  north: 'south',
  south: 'north',
  east: 'west',
  west: 'east',
  up: 'below',
  down: 'above',
  in: 'outside',
  out: 'inside',
};

/** A creature out of its spawn room takes one step back toward it. */
export function goHome(ctx: SimContext, creature: CreatureState, mind: CreatureMind): void {
  if (creature.roomRef === mind.home || playersIn(ctx, creature.roomRef).length > 0) return;
  const step = stepTowards(ctx, creature.roomRef, mind.home);
  if (step) walk(ctx, creature, step[0], step[1]);
}

/**
 * Ends every fight the creature is part of (it fled, died or despawned). A player who loses their target
 * this way turns on another creature still fighting them in the room, if any: being attacked is being in
 * combat with the attacker.
 */
export function releaseFrom(ctx: SimContext, creature: CreatureState): void {
  creature.target = '';
  ctx.state.players.forEach((player) => {
    if (player.target !== creature.id) return;
    const next = creaturesIn(ctx, player.roomRef).find(
      (other) => other.id !== creature.id && other.target === player.userId,
    );
    player.target = next?.id ?? '';
    if (!next && player.status === PlayerStatus.fighting) player.status = PlayerStatus.idle;
  });
}

/** The moves data behaviours make through this module. */
const ACTIONS: CreatureActions = {
  walk: (ctx, creature, direction, target) => walk(ctx, creature, direction, target),
  provoke: (ctx, creature, cause) => feel(ctx, creature, 'ATTACKED', cause),
};

type EmotionHandler = (
  ctx: SimContext,
  creature: CreatureState,
  mind: CreatureMind,
  template: CreatureTemplate,
) => void;

/** What each emotion-driven behaviour does on an AI step (behaviour name → handler). */
export const EMOTION_BEHAVIOURS: Record<Behaviour, EmotionHandler> = {
  attack: (ctx, creature, mind) => actAggressively(ctx, creature, mind.attackers),
  flee: (ctx, creature) => {
    moveCreature(ctx, creature);
  },
  approach: (ctx, creature, mind) => approach(ctx, creature, mind),
  ignore: (ctx, creature, mind, template) => {
    if (!template.behaviors.wander) goHome(ctx, creature, mind);
  },
};

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
    EMOTION_BEHAVIOURS[behaviour](ctx, creature, mind, template);
    for (const name of Object.keys(template.behaviors) as Array<keyof typeof DATA_BEHAVIOURS>) {
      if (ctx.state.creatures.get(creature.id) !== creature) break;
      DATA_BEHAVIOURS[name].onStep?.(ctx, creature, mind, template, behaviour, ACTIONS);
    }
  }
}

function actAggressively(ctx: SimContext, creature: CreatureState, attackers: Set<string>): void {
  const current = creature.target ? ctx.state.players.get(creature.target) : undefined;
  if (current && current.roomRef === creature.roomRef && current.status !== PlayerStatus.dead) {
    // Its victim stopped fighting back (their own target died): they are pulled back into this fight.
    if (!current.target) engage(ctx, creature, current.userId);
    return;
  }
  creature.target = '';
  const present = playersIn(ctx, creature.roomRef).filter((p) => p.status !== PlayerStatus.dead);
  // ALERT creatures go for anyone; DEFENSIVE ones only for whoever hurt them.
  const candidates = creature.emotion === 'ALERT' ? present : present.filter((p) => attackers.has(p.userId));
  if (candidates.length > 0) engage(ctx, creature, ctx.rng.pick(candidates).userId);
}
