import { z } from 'zod';
import { filterSchema, rawPointIdSchema } from './filterSchema';

const payloadSchema = z.record(z.string(), z.unknown());

/** A dense vector, or the name → vector map of a collection with named vectors. */
const vectorStructSchema = z.union([z.array(z.number()), z.record(z.string(), z.unknown())]);

const pointStructSchema = z.object({
  id: rawPointIdSchema,
  vector: vectorStructSchema,
  payload: payloadSchema.nullish(),
});

/** Parsed so that conditional upserts are refused by name instead of silently applied unconditionally. */
const conditionalUpdateFields = {
  update_filter: z.unknown().optional(),
  update_mode: z.unknown().optional(),
};

/** Qdrant's `PointInsertOperations`: a list of points or a column-wise batch. */
export const upsertSchema = z.union([
  z.object({ points: z.array(pointStructSchema), ...conditionalUpdateFields }),
  z.object({
    batch: z.strictObject({
      ids: z.array(rawPointIdSchema),
      vectors: z.union([z.array(z.array(z.number())), z.record(z.string(), z.array(z.unknown()))]),
      payloads: z.array(payloadSchema.nullable()).nullish(),
    }),
    ...conditionalUpdateFields,
  }),
]);
export type UpsertRequest = z.infer<typeof upsertSchema>;

/** Qdrant's `WithPayloadInterface`. */
export const withPayloadSchema = z.union([
  z.boolean(),
  z.array(z.string()),
  z.strictObject({ include: z.array(z.string()) }),
  z.strictObject({ exclude: z.array(z.string()) }),
]);

/** Qdrant's `WithVector`. */
export const withVectorSchema = z.union([z.boolean(), z.array(z.string())]);

export const retrieveSchema = z.object({
  ids: z.array(rawPointIdSchema),
  with_payload: withPayloadSchema.nullish(),
  with_vector: withVectorSchema.nullish(),
});

/** Qdrant's `PointsSelector`: ids or a filter. */
export const pointsSelectorSchema = z.union([
  z.object({ points: z.array(rawPointIdSchema) }),
  z.object({ filter: filterSchema }),
]);

export const setPayloadSchema = z.object({
  payload: payloadSchema,
  points: z.array(rawPointIdSchema).nullish(),
  filter: filterSchema.nullish(),
  key: z.string().nullish(),
});
export type SetPayloadRequest = z.infer<typeof setPayloadSchema>;

export const scrollSchema = z.object({
  offset: rawPointIdSchema.nullish(),
  limit: z.number().int().nullish(),
  filter: filterSchema.nullish(),
  with_payload: withPayloadSchema.nullish(),
  with_vector: withVectorSchema.nullish(),
  order_by: z.unknown().optional(),
});

export const countSchema = z.object({ filter: filterSchema.nullish(), exact: z.boolean().nullish() });

const searchParamsSchema = z.object({
  hnsw_ef: z.number().int().positive().nullish(),
  exact: z.boolean().nullish(),
  indexed_only: z.boolean().nullish(),
  quantization: z.unknown().optional(),
  acorn: z.unknown().optional(),
});
export type SearchParams = z.infer<typeof searchParamsSchema>;

const commonSearchFields = {
  filter: filterSchema.nullish(),
  params: searchParamsSchema.nullish(),
  limit: z.number().int().nullish(),
  offset: z.number().int().nullish(),
  score_threshold: z.number().nullish(),
  with_payload: withPayloadSchema.nullish(),
  with_vector: withVectorSchema.nullish(),
};

/** The legacy `POST /points/search` body (`SearchRequest`). */
export const searchSchema = z.object({
  vector: z.union([z.array(z.number()), z.strictObject({ name: z.string(), vector: z.array(z.number()) })]),
  ...commonSearchFields,
});

/** The `POST /points/query` body (`QueryRequest`); non-dense query kinds parse and are refused by name. */
export const querySchema = z.object({
  query: z.unknown().optional(),
  using: z.string().nullish(),
  prefetch: z.unknown().optional(),
  lookup_from: z.unknown().optional(),
  ...commonSearchFields,
});

export const createIndexSchema = z.object({
  field_name: z.string().min(1),
  field_schema: z.unknown().optional(),
});
