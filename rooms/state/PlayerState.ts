import { schema, t, type SchemaType } from '@colyseus/schema';

/** A player's bonded companion as everyone in the area sees it; `ref` is '' when the player has none. */
export const CompanionState = schema(
  {
    ref: t.string().default(''),
    name: t.string().default(''),
    bond: t.uint8().default(0),
    bondPoints: t.uint16().default(0),
    presence: t.string().default(''),
  },
  'CompanionState',
);
export type CompanionState = SchemaType<typeof CompanionState>;

/** Player statuses (`PlayerState.status`). */
export const PlayerStatus = { idle: 'idle', fighting: 'fighting', resting: 'resting', dead: 'dead' } as const;

/**
 * A player character in an area room's synchronised state, keyed by userId in `AreaState.players`.
 * `inventory` and `skills` map item/skill refs to counts; `equipment` maps a slot to an item ref; `target` is
 * the id of the creature the player is fighting ('' when none). xp, coins, inventory, equipment and skills
 * are view-tagged: only the player's own client receives them (rooms/visibility.ts).
 */
export const PlayerState = schema(
  {
    userId: t.string().default(''),
    name: t.string().default(''),
    roomRef: t.string().default(''),
    health: t.int16().default(0),
    maxHealth: t.int16().default(0),
    level: t.uint8().default(1),
    xp: t.uint32().default(0).view(),
    soft: t.uint32().default(0).view(),
    hard: t.uint32().default(0).view(),
    status: t.string().default('idle'),
    target: t.string().default(''),
    inventory: t.map('number').view(),
    equipment: t.map('string').view(),
    skills: t.map('number').view(),
    companion: CompanionState,
  },
  'PlayerState',
);
export type PlayerState = SchemaType<typeof PlayerState>;
