import type { SimContext } from './context';

/** The exits of `roomRef` that stay inside this area, as [direction, roomRef] pairs. */
export function exitsInArea(ctx: SimContext, roomRef: string): Array<[string, string]> {
  const room = ctx.world.rooms.get(roomRef);
  return Object.entries(room?.exits ?? {}).filter(
    (exit): exit is [string, string] => ctx.world.rooms.get(exit[1] as string)?.areaId === ctx.area.id,
  );
}

/** The first step ([direction, roomRef]) of a shortest path inside the area from `from` to `to`. */
export function stepTowards(ctx: SimContext, from: string, to: string): [string, string] | undefined {
  if (from === to) return undefined;
  const firstStep = new Map<string, [string, string]>();
  const queue: string[] = [from];
  const seen = new Set([from]);
  while (queue.length > 0) {
    const here = queue.shift()!;
    for (const exit of exitsInArea(ctx, here)) {
      const next = exit[1];
      if (seen.has(next)) continue;
      seen.add(next);
      const step = here === from ? exit : firstStep.get(here)!;
      if (next === to) return step;
      firstStep.set(next, step);
      queue.push(next);
    }
  }
  return undefined;
}
