import type { Behaviors } from '../../content/schemas';
import type { CreatureTemplate } from '../../content/world';
import type { CreatureState } from '../../state/AreaState';
import { PlayerStatus } from '../../state/PlayerState';
import { type CreatureMind, type SimContext, creaturesIn, playersIn } from '../context';
import type { Behaviour } from './emotions';
import { creatureActor } from './creatureNames';

/** What a data behaviour may make a creature do (supplied by the creature AI). */
export interface CreatureActions {
  walk(ctx: SimContext, creature: CreatureState, direction: string, target: string): void;
  /** The creature feels attacked by `cause` (and fights them if its temperament says so). */
  provoke(ctx: SimContext, creature: CreatureState, cause: string): void;
}

/** A behaviour a creature template switches on in data (`behaviors:` in creatures.yml). */
interface DataBehaviour {
  /** Runs when the creature spawns, before anyone is told (an ambusher hides here). */
  onSpawn?(creature: CreatureState, mind: CreatureMind): void;
  /** Runs every AI step after the emotion-driven behaviour (`current` is what the emotion dictated). */
  onStep?(
    ctx: SimContext,
    creature: CreatureState,
    mind: CreatureMind,
    template: CreatureTemplate,
    current: Behaviour,
    act: CreatureActions,
  ): void;
  /** Runs when a player attacks the creature. */
  onAttacked?(ctx: SimContext, creature: CreatureState, attacker: string, act: CreatureActions): void;
  /** Runs after the creature took damage and survived. */
  onHurt?(ctx: SimContext, creature: CreatureState, mind: CreatureMind, template: CreatureTemplate): void;
}

/**
 * Behaviours attached from world data, by name. The creature AI looks each name of a template's
 * `behaviors` up here; adding a behaviour is adding an entry (and its schema field).
 * - `wander { every }`: a calm creature walks to a random neighbouring room every `every` AI steps while
 *   nobody is watching.
 * - `pack`: when one is attacked, the others of its kind in the room turn on the attacker too.
 * - `territorial { after }`: a player who lingers `after` AI steps in its room is attacked.
 * - `boss { phases }`: below each phase's health fraction it says the phase's line and gains its attack.
 * - `ambusher { after }`: spawns hidden (unlisted, untargetable, unmoved by what it sees); once a living
 *   player has stood `after` AI steps in its room it bursts out at one of them and strikes first. Calm again,
 *   at home and alone, it hides once more.
 */
export const DATA_BEHAVIOURS: { [K in keyof Behaviors]-?: DataBehaviour } = {
  wander: {
    onStep(ctx, creature, mind, template, current, act) {
      const every = template.behaviors.wander?.every ?? 0;
      if (current !== 'ignore' || mind.wanderSteps < every) return;
      mind.wanderSteps = 0;
      if (playersIn(ctx, creature.roomRef).length > 0) return;
      const room = ctx.world.rooms.get(creature.roomRef);
      const exits = Object.entries(room?.exits ?? {}).filter(
        ([, ref]) => ctx.world.rooms.get(ref as string)?.areaId === ctx.area.id,
      );
      if (exits.length === 0) return;
      const [direction, target] = ctx.rng.pick(exits);
      act.walk(ctx, creature, direction, target as string);
    },
  },
  pack: {
    onAttacked(ctx, creature, attacker, act) {
      for (const ally of creaturesIn(ctx, creature.roomRef)) {
        if (ally === creature || ally.ref !== creature.ref || ally.target) continue;
        const mind = ctx.minds.get(ally.id);
        if (!mind || mind.attackers.has(attacker)) continue;
        mind.attackers.add(attacker);
        act.provoke(ctx, ally, attacker);
      }
    },
  },
  boss: {
    onHurt(ctx, creature, mind, template) {
      const phases = [...(template.behaviors.boss?.phases ?? [])].sort((a, b) => b.below - a.below);
      const fraction = creature.health / creature.maxHealth;
      while ((mind.phase ?? 0) < phases.length && fraction < phases[mind.phase ?? 0].below) {
        const phase = phases[mind.phase ?? 0];
        mind.phase = (mind.phase ?? 0) + 1;
        mind.bonusAttack = (mind.bonusAttack ?? 0) + phase.attack;
        ctx.emit({
          type: 'creature.phase',
          creature: creatureActor(ctx, creature),
          text: phase.line,
          to: { roomRef: creature.roomRef },
        });
      }
    },
  },
  territorial: {
    onStep(ctx, creature, mind, template, current, act) {
      const after = template.behaviors.territorial?.after ?? 0;
      const intruders = playersIn(ctx, creature.roomRef).filter((p) => p.status !== PlayerStatus.dead);
      if (current === 'attack' || current === 'flee' || intruders.length === 0) {
        mind.lingered = 0;
        return;
      }
      mind.lingered = (mind.lingered ?? 0) + 1;
      if (mind.lingered < after) return;
      mind.lingered = 0;
      const intruder = ctx.rng.pick(intruders);
      ctx.emit({
        type: 'creature.warned',
        creature: creatureActor(ctx, creature),
        target: { name: intruder.name, userId: intruder.userId },
        to: { roomRef: creature.roomRef },
      });
      mind.attackers.add(intruder.userId);
      act.provoke(ctx, creature, intruder.userId);
    },
  },
  ambusher: {
    onSpawn(_creature, mind) {
      mind.hidden = true;
    },
    onStep(ctx, creature, mind, template, current, act) {
      const prey = playersIn(ctx, creature.roomRef).filter((p) => p.status !== PlayerStatus.dead);
      if (!mind.hidden) {
        const settled = current === 'ignore' && !creature.target && creature.roomRef === mind.home;
        if (settled && prey.length === 0) mind.hidden = true;
        return;
      }
      mind.lingered = prey.length === 0 ? 0 : (mind.lingered ?? 0) + 1;
      if (prey.length === 0 || mind.lingered < (template.behaviors.ambusher?.after ?? 1)) return;
      mind.hidden = false;
      mind.lingered = 0;
      const victim = ctx.rng.pick(prey);
      ctx.emit({
        type: 'creature.ambushed',
        creature: creatureActor(ctx, creature),
        target: { name: victim.name, userId: victim.userId },
        to: { roomRef: creature.roomRef },
      });
      mind.attackers.add(victim.userId);
      act.provoke(ctx, creature, victim.userId);
      mind.firstStrike = creature.target === victim.userId;
    },
  },
};
