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

/**
 * The view tag of a player's private fields: only a view that added the player with this tag (their own) receives
 * them. Another player's view adds them with the default tag and gets the public fields only (rooms/visibility.ts).
 */
export const OWN_VIEW = 1;

/** Player statuses (`PlayerState.status`). */
export const PlayerStatus = { idle: 'idle', fighting: 'fighting', resting: 'resting', dead: 'dead' } as const;

/**
 * A player character in an area room's synchronised state, keyed by userId in `AreaState.players`.
 * `inventory` and `skills` map item/skill refs to counts; `equipment` maps a slot to an item ref; `target` is
 * the id of the creature the player is fighting ('' when none). xp, coins, inventory, equipment and skills
 * are tagged `OWN_VIEW`: only the player's own client receives them; the public fields go to the players who
 * stand in the same room (rooms/visibility.ts).
 */
export const PlayerState = schema(
  {
    userId: t.string().default(''),
    name: t.string().default(''),
    roomRef: t.string().default(''),
    health: t.int16().default(0),
    maxHealth: t.int16().default(0),
    level: t.uint8().default(1),
    xp: t.uint32().default(0).view(OWN_VIEW),
    soft: t.uint32().default(0).view(OWN_VIEW),
    hard: t.uint32().default(0).view(OWN_VIEW),
    status: t.string().default('idle'),
    target: t.string().default(''),
    inventory: t.map('number').view(OWN_VIEW),
    equipment: t.map('string').view(OWN_VIEW),
    skills: t.map('number').view(OWN_VIEW),
    companion: CompanionState,
  },
  'PlayerState',
);
export type PlayerState = SchemaType<typeof PlayerState>;
