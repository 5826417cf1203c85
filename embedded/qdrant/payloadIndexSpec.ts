import { z } from 'zod';
import { defaultTextIndexOptions, type TextIndexOptions } from './search/textMatch';

const payloadSchemaTypes = [
  'keyword',
  'integer',
  'float',
  'geo',
  'text',
  'bool',
  'datetime',
  'uuid',
] as const;

/** Qdrant's `PayloadSchemaType`. */
export type PayloadSchemaType = (typeof payloadSchemaTypes)[number];

/** A payload index as created: its type and, when given, Qdrant's `PayloadSchemaParams` object. */
export interface PayloadIndexSpec {
  type: PayloadSchemaType;
  params?: Record<string, unknown>;
}

/** Zod schema for `field_schema` in `PUT /collections/{name}/index`: a type name or a params object. */
export const payloadFieldSchema = z.union([
  z.enum(payloadSchemaTypes),
  z.looseObject({
    type: z.enum(payloadSchemaTypes),
    tokenizer: z.enum(['word', 'whitespace', 'prefix', 'multilingual']).optional(),
    min_token_len: z.number().int().positive().nullish(),
    max_token_len: z.number().int().positive().nullish(),
    lowercase: z.boolean().nullish(),
  }),
]);

/** Normalises a validated `field_schema` into the stored spec. */
export function toIndexSpec(schema: z.infer<typeof payloadFieldSchema>): PayloadIndexSpec {
  return typeof schema === 'string' ? { type: schema } : { type: schema.type, params: { ...schema } };
}

/** Tokenizer options of a `text` index (Qdrant's defaults for anything not given). */
export function textIndexOptions(spec: PayloadIndexSpec): TextIndexOptions | undefined {
  if (spec.type !== 'text') return undefined;
  const params = spec.params ?? {};
  return {
    tokenizer:
      (params.tokenizer as TextIndexOptions['tokenizer'] | undefined) ?? defaultTextIndexOptions.tokenizer,
    lowercase: (params.lowercase as boolean | null | undefined) ?? defaultTextIndexOptions.lowercase,
    minTokenLen: (params.min_token_len as number | null | undefined) ?? undefined,
    maxTokenLen: (params.max_token_len as number | null | undefined) ?? undefined,
  };
}

/** True when an index of this type can answer exact `match` conditions from a value → points map. */
export function isLookupIndex(spec: PayloadIndexSpec): boolean {
  return spec.type === 'keyword' || spec.type === 'integer' || spec.type === 'uuid' || spec.type === 'bool';
}
