import { schema, t, type SchemaType } from '@colyseus/schema';
import { PlayerState } from './PlayerState';

/** Emotional states a creature can be in (SPEC 2.10). */
export const EMOTIONS = ['CALM', 'CURIOUS', 'SCARED', 'ALERT', 'FRIENDLY', 'DEFENSIVE', 'PANICKED'] as const;
export type Emotion = (typeof EMOTIONS)[number];

/** A live creature, keyed by `id` in `AreaState.creatures`; `target` is the userId it fights ('' when none). */
export const CreatureState = schema(
  {
    id: t.string().default(''),
    ref: t.string().default(''),
    name: t.string().default(''),
    roomRef: t.string().default(''),
    health: t.int16().default(0),
    maxHealth: t.int16().default(0),
    emotion: t.string().default('CALM'),
    target: t.string().default(''),
  },
  'CreatureState',
);
export type CreatureState = SchemaType<typeof CreatureState>;

/** A stack of items lying on a room's floor, keyed by `id` in `AreaState.items`. */
export const FloorItemState = schema(
  {
    id: t.string().default(''),
    ref: t.string().default(''),
    name: t.string().default(''),
    roomRef: t.string().default(''),
    qty: t.uint16().default(1),
  },
  'FloorItemState',
);
export type FloorItemState = SchemaType<typeof FloorItemState>;

/**
 * The synchronised state of one area room: who and what is where, and the simulation tick. A client sees its own
 * player, and the players, creatures and floor items of the room its character stands in (StateView,
 * rooms/visibility.ts): a move patches the two rooms' clients, not the whole area's.
 */
export const AreaState = schema(
  {
    areaId: t.string().default(''),
    name: t.string().default(''),
    tick: t.uint32().default(0),
    // View-tagged: each client sees only the players, creatures and items of its own room (rooms/visibility.ts).
    players: t.map(PlayerState).view(),
    creatures: t.map(CreatureState).view(),
    items: t.map(FloorItemState).view(),
  },
  'AreaState',
);
export type AreaState = SchemaType<typeof AreaState>;
