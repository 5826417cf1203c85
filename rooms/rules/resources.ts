import type { AreaDef, World } from '../content/world';
import type { SimContext } from './context';
import { dropOnFloor } from './items';

/** One resource spot from the area data: the floor of `roomRef` holds up to `max` of `item`. */
interface ResourceSpot {
  roomRef: string;
  item: string;
  max: number;
  /** AI steps for one unit to grow back (undefined: laid out once, never regrows). */
  every?: number;
  /** AI steps spent below the cap since the last unit grew back. */
  waited: number;
}

/**
 * Floor resources (herbs, ore, crystals): laid out when the area room starts, and, for entries with `every`,
 * topped up by one unit every `every` AI steps while the room's floor holds fewer than `qty` of the item.
 * Dropped items count toward the cap, so a room never fills beyond what the data says. Quest items regrow
 * quickly, so every player who needs one finds one.
 */
export class ResourceSystem {
  private readonly spots: ResourceSpot[];

  constructor(area: AreaDef, world: World) {
    this.spots = area.roomRefs.flatMap((roomRef) =>
      world.rooms.get(roomRef)!.items.map((entry) => ({
        roomRef,
        item: entry.item,
        max: entry.qty,
        every: entry.every,
        waited: 0,
      })),
    );
  }

  /** Lays out every spot's full amount (the area room starts). */
  populate(ctx: SimContext): void {
    for (const spot of this.spots) dropOnFloor(ctx, spot.roomRef, spot.item, spot.max);
  }

  /** One AI step of regrowth. */
  run(ctx: SimContext): void {
    for (const spot of this.spots) {
      if (spot.every === undefined) continue;
      if (floorCount(ctx, spot.roomRef, spot.item) >= spot.max) {
        spot.waited = 0;
        continue;
      }
      spot.waited += 1;
      if (spot.waited < spot.every) continue;
      spot.waited = 0;
      dropOnFloor(ctx, spot.roomRef, spot.item, 1);
    }
  }
}

/** How many of `ref` lie on the floor of `roomRef`. */
export function floorCount(ctx: SimContext, roomRef: string, ref: string): number {
  let count = 0;
  ctx.state.items.forEach((item) => {
    if (item.roomRef === roomRef && item.ref === ref) count += item.qty;
  });
  return count;
}
