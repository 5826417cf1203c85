import type { CreatureState } from '../../state/AreaState';
import { type SimContext, creaturesIn, matchByName, normalise } from '../context';
import { ORDINALS, labelOf } from '../../text/words';
import type { Actor } from '../../text/events';

/**
 * Telling creatures of one kind apart. When a room holds several creatures of one name, each is numbered by when
 * it came into the room ("the first speckled hen", "a second speckled hen arrives"), in every line that names it and
 * in `look`; `attack 2.hen`, `attack second hen` and `attack hen 2` pick the one that number names. Numbers are
 * per room and kind, as in Diku-style MUDs: when the first dies, the second becomes the only (unnumbered) one.
 */

let arrivals = 0;

/** Marks a creature as having just come into its room (spawned or walked in): it is numbered after the others. */
export function markArrival(ctx: SimContext, creature: CreatureState): void {
  const mind = ctx.minds.get(creature.id);
  if (mind) mind.arrived = ++arrivals;
}

/** The creatures players see in `roomRef`, in the order they came into it (the order they are numbered in). */
export function creaturesByArrival(ctx: SimContext, roomRef: string): CreatureState[] {
  const arrived = (c: CreatureState) => ctx.minds.get(c.id)?.arrived ?? 0;
  return creaturesIn(ctx, roomRef).sort((a, b) => arrived(a) - arrived(b));
}

/**
 * Its number among the creatures of its name in its room (1-based), or undefined when it is the only one. A creature
 * struck down this instant still counts (its last blow and its death are told before it is removed).
 */
export function nthOf(ctx: SimContext, creature: CreatureState): number | undefined {
  const arrived = (c: CreatureState) => ctx.minds.get(c.id)?.arrived ?? 0;
  const kind: CreatureState[] = [];
  ctx.state.creatures.forEach((c) => {
    const seen = c.id === creature.id || (c.health > 0 && !ctx.minds.get(c.id)?.hidden);
    if (seen && c.roomRef === creature.roomRef && c.name === creature.name) kind.push(c);
  });
  kind.sort((a, b) => arrived(a) - arrived(b));
  const at = kind.findIndex((c) => c.id === creature.id);
  return kind.length > 1 && at >= 0 ? at + 1 : undefined;
}

/** A creature as an event's actor: its name and, when others of its name share its room, its number. */
export function creatureActor(ctx: SimContext, creature: CreatureState): Actor {
  const nth = nthOf(ctx, creature);
  return nth ? { name: creature.name, nth } : { name: creature.name };
}

/** "second speckled hen" / "speckled hen": how a line names this creature now. */
export function creatureLabel(ctx: SimContext, creature: CreatureState): string {
  return labelOf(creatureActor(ctx, creature));
}

const WORD_NUMBERS = new Map(ORDINALS.map((word, i) => [word, i + 1]));

/** `"2.hen"`, `"second hen"`, `"the second hen"`, `"hen 2"` → `{ nth: 2, name: "hen" }`; else no number. */
export function splitOrdinal(query: string): { nth?: number; name: string } {
  const q = normalise(query).replace(/^the\s+/, '');
  const dotted = /^(\d{1,3})\.(.+)$/.exec(q);
  if (dotted) return { nth: Number(dotted[1]), name: dotted[2].trim() };
  const [first, ...rest] = q.split(' ');
  const worded = WORD_NUMBERS.get(first) ?? (/^\d{1,3}(st|nd|rd|th)$/.test(first) ? parseInt(first, 10) : 0);
  if (worded && rest.length > 0) return { nth: worded, name: rest.join(' ') };
  const trailing = /^(.+)\s+(\d{1,3})$/.exec(q);
  if (trailing) return { nth: Number(trailing[2]), name: trailing[1] };
  return { name: q };
}

/**
 * The creature in `roomRef` that `query` names: an id or ref, a name (the first to arrive of that name), or a
 * numbered name (`2.hen`, `second hen`, `hen 2`: the second to arrive among those the name matches).
 */
export function findCreature(ctx: SimContext, roomRef: string, query: string): CreatureState | undefined {
  const here = creaturesByArrival(ctx, roomRef);
  const keys = (c: CreatureState) => [c.id, c.ref, c.name];
  const { nth, name } = splitOrdinal(query);
  if (!nth) return matchByName(here, query, keys);
  const exact = here.filter((c) => keys(c).some((key) => normalise(key) === name));
  const matching =
    exact.length > 0 ? exact : here.filter((c) => keys(c).some((k) => normalise(k).includes(name)));
  return matching[nth - 1];
}
