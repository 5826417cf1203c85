import { z } from 'zod';

/**
 * zod schemas for the world data files under `world/`. Every object is strict, so a misspelt key is an error
 * that names the file and field instead of a silently ignored setting. Things refer to each other by
 * `"area:id"` references; whether a reference points at something that exists is checked afterwards by
 * `crossReferences.ts`, because it needs every file loaded.
 */

/** A local identifier: lowercase, starts with a letter (`square`, `old_well`). */
export const LocalId = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a lowercase id like "old_well"');

/** `"area:id"`, the one way world data names another thing. */
export const Ref = z.string().regex(/^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$/, 'must be an "area:id" reference');

/** Exit directions a room may have. */
export const Direction = z.enum(['north', 'south', 'east', 'west', 'up', 'down', 'in', 'out']);
export type Direction = z.infer<typeof Direction>;

/** Room tags unlock actions: `rest` doubles regeneration, the others are crafting stations. */
export const RoomTag = z.enum(['rest', 'forge', 'workbench', 'kitchen', 'shrine']);
export type RoomTag = z.infer<typeof RoomTag>;

const count = z.number().int().min(1);

/** A spawn point: keeps up to `max` of `creature` in the room, refilling `every` AI steps after a death. */
export const SpawnPoint = z.strictObject({
  creature: Ref,
  max: z.number().int().min(1).max(10),
  every: z.number().int().min(1).default(50),
});

export const RoomFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  exits: z.partialRecord(Direction, Ref).default({}),
  spawns: z.array(SpawnPoint).default([]),
  /** Floor resources: `qty` laid out at start; with `every`, one unit grows back per `every` AI steps up to `qty`. */
  items: z.array(z.strictObject({ item: Ref, qty: count.default(1), every: count.optional() })).default([]),
  tags: z.array(RoomTag).default([]),
  /** Things in the room a player can `examine` (keyword → what they see). */
  details: z.record(z.string().regex(/^[a-z][a-z ]*$/), z.string().min(1)).default({}),
  /** What `tutorial` tells a newcomer here (the first areas' rooms have one): what to try in this room. */
  tutorial: z.string().min(1).max(400).optional(),
});

/** `world/<area>/area.yml`: the area and its rooms. `spawnBudget` caps live creatures in the whole area. */
export const AreaFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  spawnBudget: z.number().int().min(0),
  respawnRoom: Ref,
  rooms: z.record(LocalId, RoomFile).refine((rooms) => Object.keys(rooms).length > 0, 'an area needs a room'),
});

/** Temperament picks the row overrides of the emotion transition table (see systems/emotions.ts). */
export const Temperament = z.enum(['aggressive', 'neutral', 'timid', 'docile']);
export type Temperament = z.infer<typeof Temperament>;

/** Behaviours a creature template can switch on, each handled by an entry of `DATA_BEHAVIOURS`. */
export const Behaviors = z.strictObject({
  wander: z.strictObject({ every: count }).optional(),
  pack: z.strictObject({}).optional(),
  territorial: z.strictObject({ after: count }).optional(),
  /** Hidden (not listed, not targetable) until a player has stood `after` AI steps in its room; then it strikes first. */
  ambusher: z.strictObject({ after: count.default(1) }).optional(),
  /** A boss: as its health falls below each phase's fraction it announces the phase and hits harder. */
  boss: z
    .strictObject({
      phases: z
        .array(
          z.strictObject({
            below: z.number().gt(0).lt(1),
            attack: z.number().int().min(0),
            line: z.string().min(1),
          }),
        )
        .min(1),
    })
    .optional(),
});
export type Behaviors = z.infer<typeof Behaviors>;

export const CreatureFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  level: z.number().int().min(1),
  maxHealth: z.number().int().min(1),
  attack: z.number().int().min(0),
  defense: z.number().int().min(0),
  xp: z.number().int().min(0),
  temperament: Temperament,
  loot: z
    .array(z.strictObject({ item: Ref, chance: z.number().min(0).max(1), qty: count.default(1) }))
    .default([]),
  /** Named behaviours attached from data (systems/creatureBehaviours.ts); step counts are AI steps. */
  behaviors: Behaviors.default({}),
  /** Plural name when adding "s" is wrong ("wolves"). */
  plural: z.string().min(1).optional(),
  /** AI steps without news before "time passes" for the emotion machine. */
  calmAfter: count.default(30),
});

export const ItemKind = z.enum(['weapon', 'armor', 'consumable', 'material', 'quest', 'tool', 'trinket']);
export const EquipSlot = z.enum(['weapon', 'head', 'body', 'hands', 'feet', 'trinket']);
export type EquipSlot = z.infer<typeof EquipSlot>;

export const ItemFile = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().min(1),
    kind: ItemKind,
    slot: EquipSlot.optional(),
    attack: z.number().int().min(0).default(0),
    defense: z.number().int().min(0).default(0),
    heal: z.number().int().min(0).default(0),
    value: z.number().int().min(0).default(0),
    /** Plural name when adding "s" is wrong. */
    plural: z.string().min(1).optional(),
  })
  .refine((item) => (item.kind === 'weapon' || item.kind === 'armor') === (item.slot !== undefined), {
    message: 'weapons and armor need a slot; other kinds must not have one',
    path: ['slot'],
  })
  .refine((item) => item.kind !== 'consumable' || item.heal > 0, {
    message: 'a consumable must heal',
    path: ['heal'],
  });

export const Disposition = z.enum(['friendly', 'neutral', 'wary']);
export type Disposition = z.infer<typeof Disposition>;

export const NpcFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  room: Ref,
  disposition: Disposition.default('neutral'),
  greetings: z.strictObject({
    friendly: z.string().min(1),
    neutral: z.string().min(1),
    wary: z.string().min(1),
  }),
  offers: z.array(Ref).default([]),
  /** Wares: `stock` units on hand (unlimited when absent), one more every `restock` AI steps. */
  sells: z
    .array(
      z.strictObject({
        item: Ref,
        price: z.number().int().min(1),
        stock: count.optional(),
        restock: count.default(30),
      }),
    )
    .default([]),
  /** Item kinds or item refs the NPC buys, at the item's `value`. */
  buys: z.array(z.union([ItemKind, Ref])).default([]),
  /** Keeps the platform marketplace's ledger: players `trade` (list, browse, buy, cancel) through this NPC. */
  broker: z.boolean().default(false),
  likes: z.array(Ref).default([]),
  protects: z.array(Ref).default([]),
  /**
   * What the NPC adds after its greeting, by the state of a quest it takes part in (giver, someone to talk
   * to, escort or riddle): `before` (open to the player, not taken), `active`, `after` (completed). Wary
   * NPCs say none of it.
   */
  questLines: z
    .record(
      Ref,
      z
        .strictObject({
          before: z.string().min(1).optional(),
          active: z.string().min(1).optional(),
          after: z.string().min(1).optional(),
        })
        .refine((lines) => lines.before ?? lines.active ?? lines.after, 'give at least one line'),
    )
    .default({}),
  /**
   * Dialogue choices (`ask <npc> about <topic>`): what the player says, the reply, and how the answer moves
   * the NPC's disposition toward them (once per player); `requires` a completed quest to be offered.
   */
  topics: z
    .record(
      LocalId,
      z.strictObject({
        ask: z.string().min(1),
        reply: z.string().min(1),
        disposition: z.number().int().min(-3).max(3).default(0),
        requires: Ref.optional(),
      }),
    )
    .default({}),
});

export const RecipeFile = z.strictObject({
  name: z.string().min(1),
  ingredients: z.array(z.strictObject({ item: Ref, qty: count })).min(1),
  produces: z.strictObject({ item: Ref, qty: count.default(1) }),
  requiresTag: RoomTag.optional(),
});

export const Objective = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('kill'), creature: Ref, count }),
  z.strictObject({ kind: z.literal('collect'), item: Ref, count }),
  z.strictObject({ kind: z.literal('visit'), room: Ref }),
  z.strictObject({ kind: z.literal('talk'), npc: Ref }),
  /** Bring `npc` (who follows the player) alive to room `to`, in the NPC's own area. */
  z.strictObject({ kind: z.literal('escort'), npc: Ref, to: Ref }),
  /** A puzzle: answer `npc`'s `question` by saying one of `answers` in its presence (case and spaces ignored). */
  z.strictObject({
    kind: z.literal('riddle'),
    npc: Ref,
    question: z.string().min(1),
    answers: z.array(z.string().trim().min(1)).min(1),
  }),
]);
export type Objective = z.infer<typeof Objective>;

export const QuestFile = z.strictObject({
  name: z.string().min(1),
  description: z.string().min(1),
  giver: Ref,
  objectives: z.array(Objective).min(1),
  rewards: z
    .strictObject({
      xp: z.number().int().min(0).default(0),
      soft: z.number().int().min(0).default(0),
      items: z.array(z.strictObject({ item: Ref, qty: count.default(1) })).default([]),
      companion: Ref.optional(),
    })
    .default({ xp: 0, soft: 0, items: [] }),
  requires: z.array(Ref).default([]),
  /**
   * A branch: quests this one rules out. Taking either side of an exclusion closes the other for good, so
   * a choice between them leads to different next stages and rewards (declared on both sides).
   */
  excludes: z.array(Ref).default([]),
  /** `daily`: can be taken again 24 hours after it was completed. */
  repeatable: z.enum(['daily']).optional(),
});

export const CompanionPresence = z.enum(['Always', 'On Demand', 'Subtle', 'Progressive', 'Silent']);
export type CompanionPresence = z.infer<typeof CompanionPresence>;

/** Companions are bonded, never bought: `is_purchasable` must be literally `false`. */
export const CompanionFile = z.strictObject({
  name: z.string().min(1),
  species: z.string().min(1),
  description: z.string().min(1),
  is_purchasable: z.literal(false),
  presence: CompanionPresence.default('Progressive'),
  attack: z.number().int().min(0).default(1),
  lines: z.strictObject({
    greet: z.string().min(1),
    combat: z.string().min(1),
    lowHealth: z.string().min(1),
    questDone: z.string().min(1),
  }),
});

/** A help topic (`help <topic>`): a title and a few lines of text. */
export const HelpTopic = z.strictObject({ title: z.string().min(1), text: z.string().min(1) });

/** `world/world.yml`: the world's name, where new characters start and the help topics. */
export const WorldFile = z.strictObject({
  name: z.string().min(1),
  startRoom: Ref,
  help: z.record(LocalId, HelpTopic).default({}),
});

/** The optional per-area files and the schema of one entry (the file is a map of local id → entry). */
export const AREA_ENTRY_FILES = {
  creatures: CreatureFile,
  items: ItemFile,
  npcs: NpcFile,
  recipes: RecipeFile,
  quests: QuestFile,
  companions: CompanionFile,
} as const;
export type AreaEntryKind = keyof typeof AREA_ENTRY_FILES;
