import type { AreaDef, CreatureTemplate, World } from '../../content/world';
import { CreatureState } from '../../state/AreaState';
import type { CreatureMind, SimContext } from '../context';
import { DATA_BEHAVIOURS } from './creatureBehaviours';
import { creatureActor, markArrival } from './creatureNames';

/** A spawn point from the area data: keeps up to `max` of `creature` in `roomRef`. */
export interface SpawnPoint {
  id: string;
  roomRef: string;
  creature: string;
  max: number;
  /** Respawn delay in AI steps. */
  every: number;
}

/** One area's spawn status, as `GET /mud/spawns/status` reports it. */
export interface SpawnStatus {
  areaId: string;
  budget: number;
  live: number;
  pending: number;
  points: Array<{
    id: string;
    roomRef: string;
    creature: string;
    max: number;
    live: number;
    pending: number;
  }>;
}

/** Puts a new creature from `template` into `roomRef`. */
export function spawnCreature(
  ctx: SimContext,
  template: CreatureTemplate,
  roomRef: string,
  pointId: string,
): CreatureState {
  const id = ctx.nextId('c');
  const creature = new CreatureState({
    id,
    ref: template.ref,
    name: template.name,
    roomRef,
    health: template.maxHealth,
    maxHealth: template.maxHealth,
    emotion: 'CALM',
    target: '',
  });
  ctx.state.creatures.set(id, creature);
  const mind: CreatureMind = {
    quietSteps: 0,
    wanderSteps: 0,
    attackers: new Set(),
    spawnPoint: pointId,
    home: roomRef,
  };
  ctx.minds.set(id, mind);
  markArrival(ctx, creature);
  for (const name of Object.keys(template.behaviors) as Array<keyof typeof DATA_BEHAVIOURS>)
    DATA_BEHAVIOURS[name].onSpawn?.(creature, mind);
  if (!mind.hidden)
    ctx.emit({ type: 'creature.spawned', creature: creatureActor(ctx, creature), to: { roomRef } });
  return creature;
}

/**
 * Keeps an area populated within its budget. Every missing creature is a pending spawn with a due tick; a
 * due spawn happens when the area has fewer live creatures than `spawnBudget`, otherwise it stays pending.
 */
export class SpawnSystem {
  readonly points: SpawnPoint[];
  private pending: Array<{ pointId: string; dueTick: number }> = [];

  constructor(
    private readonly area: AreaDef,
    private readonly world: World,
  ) {
    this.points = area.roomRefs.flatMap((roomRef) =>
      world.rooms.get(roomRef)!.spawns.map((spawn, i) => ({ id: `${roomRef}#${i}`, roomRef, ...spawn })),
    );
  }

  /** Queues every point's full complement as due now and spawns what the budget allows. */
  populate(ctx: SimContext): void {
    for (const point of this.points) {
      for (let i = 0; i < point.max; i++) this.pending.push({ pointId: point.id, dueTick: ctx.state.tick });
    }
    this.run(ctx);
  }

  /** A creature left the world (died): its point gets a pending respawn `every` AI steps from now. */
  creatureRemoved(ctx: SimContext, pointId: string): void {
    const point = this.points.find((p) => p.id === pointId);
    if (point) this.pending.push({ pointId, dueTick: ctx.state.tick + point.every * ctx.tuning.aiEvery });
  }

  /** Spawns every due pending creature the budget allows. */
  run(ctx: SimContext): void {
    let live = ctx.state.creatures.size;
    const waiting: typeof this.pending = [];
    for (const entry of this.pending) {
      if (entry.dueTick > ctx.state.tick || live >= this.area.spawnBudget) {
        waiting.push(entry);
        continue;
      }
      const point = this.points.find((p) => p.id === entry.pointId)!;
      spawnCreature(ctx, this.world.creatures.get(point.creature)!, point.roomRef, point.id);
      live += 1;
    }
    this.pending = waiting;
  }

  /** Live and pending counts, per area and per point. */
  status(ctx: SimContext): SpawnStatus {
    const livePerPoint = new Map<string, number>();
    ctx.minds.forEach((mind) =>
      livePerPoint.set(mind.spawnPoint, (livePerPoint.get(mind.spawnPoint) ?? 0) + 1),
    );
    return {
      areaId: this.area.id,
      budget: this.area.spawnBudget,
      live: ctx.state.creatures.size,
      pending: this.pending.length,
      points: this.points.map((p) => ({
        id: p.id,
        roomRef: p.roomRef,
        creature: p.creature,
        max: p.max,
        live: livePerPoint.get(p.id) ?? 0,
        pending: this.pending.filter((e) => e.pointId === p.id).length,
      })),
    };
  }
}
