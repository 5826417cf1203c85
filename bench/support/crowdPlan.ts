/**
 * For bench/mudCrowd.ts: where each player of the crowd lives and what it does (the same in the platform process,
 * which seeds the characters, and in the load processes, which act), and the server's tick figures.
 */
import type { World } from '../../rooms/content/world';
import { worldTickDuration, worldTickLag } from '../../platform/metrics';

/** The six areas, in world order; player i lives in AREAS[i % 6]. */
export const AREAS = ['caves', 'forest', 'marsh', 'peaks', 'ruins', 'village'] as const;

export type CrowdKind = 'look' | 'move' | 'say' | 'attack' | 'talk' | 'quests';
export const CROWD_KINDS: CrowdKind[] = ['look', 'move', 'say', 'attack', 'talk', 'quests'];

/** One player's home: a room, a neighbour in the same area to walk to and back, and who is around to fight or talk to. */
export interface CrowdHome {
  area: string;
  room: string;
  /** The exit to the neighbour and the one back, or undefined when the room has no two-way exit in its area. */
  out?: string;
  back?: string;
  /** A creature that spawns in the room or its neighbour (by name), and an NPC standing in one of them. */
  creature?: string;
  npc?: string;
}

/** Player i's home: area i % 6, then the area's rooms in turn, so players fill every room of every area. */
export function crowdHome(world: World, i: number): CrowdHome {
  const area = AREAS[i % AREAS.length];
  const rooms = world.areas.get(area)!.roomRefs;
  const room = rooms[Math.floor(i / AREAS.length) % rooms.length];
  const def = world.rooms.get(room)!;
  let out: string | undefined;
  let back: string | undefined;
  let neighbour: string | undefined;
  for (const [direction, target] of Object.entries(def.exits)) {
    const there = target ? world.rooms.get(target) : undefined;
    if (!there || there.areaId !== area) continue;
    const reverse = Object.entries(there.exits).find(([, ref]) => ref === room)?.[0];
    if (reverse) {
      [out, back, neighbour] = [direction, reverse, target];
      break;
    }
  }
  const near = [room, neighbour].filter(Boolean) as string[];
  const spawn = near.flatMap((ref) => world.rooms.get(ref)!.spawns)[0];
  const creature = spawn ? world.creatures.get(spawn.creature)?.name : undefined;
  const npc = [...world.npcs.values()].find((n) => near.includes(n.room))?.name;
  return { area, room, out, back, creature, npc };
}

/**
 * A person's mix: 30% look, 20% move, 20% say, 10% attack, 10% talk, 10% quests (the quest log). A move, attack or
 * talk with nothing to move to, fight or talk to is a look.
 */
export function pickKind(home: CrowdHome, roll: number): CrowdKind {
  const kind: CrowdKind =
    roll < 0.3
      ? 'look'
      : roll < 0.5
        ? 'move'
        : roll < 0.7
          ? 'say'
          : roll < 0.8
            ? 'attack'
            : roll < 0.9
              ? 'talk'
              : 'quests';
  if (kind === 'move' && !home.out) return 'look';
  if (kind === 'attack' && !home.creature) return 'look';
  if (kind === 'talk' && !home.npc) return 'look';
  return kind;
}

/** A small seeded generator (mulberry32), so a run's think times and mix repeat. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The world tick histograms summed over the areas: count, sum and cumulative bucket counts by upper bound. */
export interface TickSnapshot {
  lag: { count: number; sum: number; buckets: Map<number, number> };
  duration: { count: number; sum: number; buckets: Map<number, number> };
}

async function histogram(metric: typeof worldTickLag): Promise<TickSnapshot['lag']> {
  const out = { count: 0, sum: 0, buckets: new Map<number, number>() };
  for (const value of (await metric.get()).values) {
    const name = value.metricName ?? '';
    if (name.endsWith('_count')) out.count += value.value;
    else if (name.endsWith('_sum')) out.sum += value.value;
    else if (name.endsWith('_bucket')) {
      const { le: bound } = value.labels as { le?: string | number };
      const le = bound === '+Inf' ? Infinity : Number(bound);
      out.buckets.set(le, (out.buckets.get(le) ?? 0) + value.value);
    }
  }
  return out;
}

export async function tickSnapshot(): Promise<TickSnapshot> {
  return { lag: await histogram(worldTickLag), duration: await histogram(worldTickDuration) };
}

/**
 * What the ticks between two snapshots did, as text: how many, the mean and the p95 bucket of their lag (how late
 * each started against its 100 ms schedule) and of their duration, and how many started a whole interval late.
 */
export function describeTicks(before: TickSnapshot, after: TickSnapshot, tickMs: number): string {
  const part = (key: 'lag' | 'duration') => {
    const count = after[key].count - before[key].count;
    const sum = after[key].sum - before[key].sum;
    const bounds = [...after[key].buckets.keys()].sort((a, b) => a - b);
    const within = (le: number) => (after[key].buckets.get(le) ?? 0) - (before[key].buckets.get(le) ?? 0);
    const p95 = bounds.find((le) => within(le) >= 0.95 * count) ?? Infinity;
    const top = bounds.filter(Number.isFinite).at(-1) ?? 0;
    const p95Text = Number.isFinite(p95) ? `≤ ${p95 * 1000} ms` : `> ${top * 1000} ms`;
    return { count, mean: count ? (sum / count) * 1000 : 0, p95Text, within };
  };
  const lag = part('lag');
  const duration = part('duration');
  const late = lag.count - lag.within(tickMs / 1000);
  return (
    `${lag.count} ticks; lag mean ${lag.mean.toFixed(1)} ms, p95 ${lag.p95Text}; ` +
    `${late} (${((late / Math.max(1, lag.count)) * 100).toFixed(1)}%) started more than one interval late; ` +
    `duration mean ${duration.mean.toFixed(2)} ms, p95 ${duration.p95Text}`
  );
}
