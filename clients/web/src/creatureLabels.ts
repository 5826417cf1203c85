/**
 * Names for the creatures in the Here list that match the log's: when several share a name, "first speckled hen",
 * "second speckled hen", numbered by when they came into the room (rooms/rules/creatures/creatureNames.ts). The order the
 * last room description listed them in seeds it (the world sends them by arrival); creatures seen after it come
 * next, in the order the page first sees them in the room.
 */

const ORDINALS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** "first" … "tenth", then "11th". */
export function ordinal(n: number): string {
  return ORDINALS[n - 1] ?? `${n}th`;
}

/** A creature as the Here list needs it. */
export interface SeenCreature {
  id: string;
  name: string;
}

/** Keeps the arrival order of creatures in the player's room and labels them. */
export class CreatureLabels {
  private roomRef = '';
  private readonly order = new Map<string, number>();
  private next = 0;

  /** A room description: its creatures, in the world's (arrival) order, come first. */
  seeded(roomRef: string, creatures: SeenCreature[]): void {
    this.roomRef = roomRef;
    this.order.clear();
    this.next = 0;
    for (const creature of creatures) this.order.set(creature.id, this.next++);
  }

  /** The creatures in `roomRef`, in arrival order, each with its label ("second speckled hen" or its name). */
  label<T extends SeenCreature>(roomRef: string, here: T[]): Array<{ creature: T; label: string }> {
    if (roomRef !== this.roomRef) this.seeded(roomRef, []);
    for (const creature of here) if (!this.order.has(creature.id)) this.order.set(creature.id, this.next++);
    const present = new Set(here.map((creature) => creature.id));
    for (const id of [...this.order.keys()]) if (!present.has(id)) this.order.delete(id);
    const sorted = [...here].sort((a, b) => this.order.get(a.id)! - this.order.get(b.id)!);
    return sorted.map((creature) => {
      const kind = sorted.filter((other) => other.name === creature.name);
      const nth = kind.indexOf(creature) + 1;
      return { creature, label: kind.length > 1 ? `${ordinal(nth)} ${creature.name}` : creature.name };
    });
  }
}
