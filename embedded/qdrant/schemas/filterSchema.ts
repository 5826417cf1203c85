import { z } from 'zod';

/** Qdrant's `ExtendedPointId` on the wire (validated and canonicalised later by `parsePointId`). */
export const rawPointIdSchema = z.union([z.number(), z.string()]);

const valueVariant = z.union([z.string(), z.number(), z.boolean()]);
const anyVariants = z.union([z.array(z.string()), z.array(z.number())]);

/** Qdrant's `Match` variants; `prefix` parses so that it can be refused by name rather than as a typo. */
export const matchSchema = z.union([
  z.strictObject({ value: valueVariant }),
  z.strictObject({ text: z.string() }),
  z.strictObject({ text_any: z.string() }),
  z.strictObject({ phrase: z.string() }),
  z.strictObject({ prefix: z.string() }),
  z.strictObject({ any: anyVariants }),
  z.strictObject({ except: anyVariants }),
]);
export type Match = z.infer<typeof matchSchema>;

const bound = z.union([z.number(), z.string()]).nullish();
/** Qdrant's `Range` (numbers) and `DatetimeRange` (RFC 3339 strings) share one shape. */
export const rangeSchema = z.strictObject({ lt: bound, gt: bound, gte: bound, lte: bound });
export type Range = z.infer<typeof rangeSchema>;

const countBound = z.number().int().nonnegative().nullish();
const valuesCountSchema = z.strictObject({
  lt: countBound,
  gt: countBound,
  gte: countBound,
  lte: countBound,
});

/** A condition on one payload key. Geo conditions parse so they can be refused with a clear message. */
export const fieldConditionSchema = z.strictObject({
  key: z.string().min(1),
  match: matchSchema.nullish(),
  range: rangeSchema.nullish(),
  values_count: valuesCountSchema.nullish(),
  is_empty: z.boolean().nullish(),
  is_null: z.boolean().nullish(),
  geo_bounding_box: z.unknown().optional(),
  geo_radius: z.unknown().optional(),
  geo_polygon: z.unknown().optional(),
});
export type FieldCondition = z.infer<typeof fieldConditionSchema>;

/** Qdrant's `Filter`; conditions may be a single object or a list, as the server accepts both. */
export interface Filter {
  must?: Condition | Condition[] | null;
  should?: Condition | Condition[] | null;
  must_not?: Condition | Condition[] | null;
  min_should?: { conditions: Condition[]; min_count: number } | null;
}

/** Every condition form Qdrant accepts inside a filter clause. */
export type Condition =
  | FieldCondition
  | { is_empty: { key: string } }
  | { is_null: { key: string } }
  | { has_id: (number | string)[] }
  | { has_vector: string }
  | { nested: { key: string; filter: Filter } }
  | Filter;

const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    fieldConditionSchema,
    z.strictObject({ is_empty: z.strictObject({ key: z.string().min(1) }) }),
    z.strictObject({ is_null: z.strictObject({ key: z.string().min(1) }) }),
    z.strictObject({ has_id: z.array(rawPointIdSchema) }),
    z.strictObject({ has_vector: z.string() }),
    z.strictObject({ nested: z.strictObject({ key: z.string().min(1), filter: filterSchema }) }),
    filterSchema,
  ]),
);

const clause = z.union([conditionSchema, z.array(conditionSchema)]).nullish();

/** Zod schema for Qdrant's `Filter`. */
export const filterSchema: z.ZodType<Filter> = z.lazy(() =>
  z.strictObject({
    must: clause,
    should: clause,
    must_not: clause,
    min_should: z
      .strictObject({ conditions: z.array(conditionSchema), min_count: z.number().int().nonnegative() })
      .nullish(),
  }),
);
