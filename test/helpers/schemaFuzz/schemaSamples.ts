/**
 * Valid values from the JSON schemas of an OpenAPI 3.1 document: what a well-behaved client would send, the
 * starting point every mutation of the contract fuzz changes one thing of. Pure and deterministic.
 */

/** The part of a JSON schema the sampler reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

/** Component schemas by name, as `#/components/schemas/X` refers to them. */
export type SchemaComponents = Record<string, JsonSchema>;

/** Strings tried, in order, against a `pattern`: the first that matches is the sample. */
const PATTERN_CANDIDATES = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  `0x${'ab'.repeat(32)}`,
  `0x${'ab'.repeat(65)}`,
  '0123456789abcdef01234567',
  'Fuzz Tester',
  'village:square',
  'auth.sign_in',
  'fuzz-bot.1',
  'ab12',
  '1',
  'x',
];

/** A valid value of each standard format. */
const FORMATS: Record<string, string> = {
  email: 'fuzz@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** The schema a `$ref` points at (refs of refs followed), or the schema itself. */
export function resolveSchema(schema: JsonSchema | undefined, components: SchemaComponents): JsonSchema {
  for (let hops = 0; schema?.$ref && hops < 10; hops++)
    schema = components[schema.$ref.split('/').pop() ?? ''];
  return schema ?? {};
}

/** The non-null type a schema declares, if any. */
export function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  return schema.properties ? 'object' : undefined;
}

function sampleString(schema: JsonSchema): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  const fitting = PATTERN_CANDIDATES.find(
    (candidate) =>
      (!pattern || pattern.test(candidate)) &&
      candidate.length >= (schema.minLength ?? 0) &&
      candidate.length <= (schema.maxLength ?? Infinity),
  );
  return fitting ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

function sampleNumber(schema: JsonSchema): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  return Math.min(Math.max(1, low), schema.maximum ?? Infinity);
}

/**
 * A valid value of the schema: its const, example, default or first enum value; the first variant of a union;
 * every property of an object (optional ones too, so each can be mutated); `minItems` items (at least one) of an
 * array; a string fitting its format, pattern and length; a number within its bounds.
 */
export function sampleOf(ref: JsonSchema | undefined, components: SchemaComponents, depth = 0): unknown {
  const schema = resolveSchema(ref, components);
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variant =
    schema.anyOf?.find((v) => resolveSchema(v, components).type !== 'null') ?? schema.oneOf?.[0];
  if (variant) return sampleOf(variant, components, depth);
  if (schema.allOf?.length)
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, components, depth)));
  switch (typeOf(schema)) {
    case 'object':
      if (depth > 5) return {};
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [
          key,
          sampleOf(value, components, depth + 1),
        ]),
      );
    case 'array': {
      if (depth > 5) return [];
      const count = Math.max(1, schema.minItems ?? 1);
      return Array.from({ length: count }, () => sampleOf(schema.items, components, depth + 1));
    }
    case 'integer':
    case 'number':
      return sampleNumber(schema);
    case 'boolean':
      return true;
    default:
      return sampleString(schema);
  }
}

/** Paths to every field of a sample: its keys, and the keys of objects one level down (in objects or first items). */
export function fieldPaths(sample: unknown): string[][] {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return [];
  return Object.entries(sample).flatMap(([key, value]) => {
    const inner = Array.isArray(value) ? value[0] : value;
    const at = Array.isArray(value) ? [key, '0'] : [key];
    const nested =
      typeof inner === 'object' && inner !== null && !Array.isArray(inner)
        ? Object.keys(inner).map((innerKey) => [...at, innerKey])
        : [];
    return [[key], ...nested];
  });
}
