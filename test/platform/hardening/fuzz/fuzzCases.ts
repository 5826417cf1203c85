/**
 * Fuzz cases from an OpenAPI 3.1 document: for every operation, requests with malformed bodies, wrong types, huge
 * and deep values, operator injection (`{"$gt":""}`), prototype keys and bad percent-encoding in paths and queries.
 * Pure: it only builds the cases; the test sends them.
 */

/** The part of a JSON schema the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
}

/** The part of an OpenAPI document the generator reads. */
export interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One request to send; `credential` is the index of the credential to present (0 = none). */
export interface FuzzCase {
  method: string;
  path: string;
  /** Raw JSON text, or undefined for no body. */
  body?: string;
  contentType?: string;
  credential: number;
  label: string;
}

const HUGE = 'x'.repeat(100_000);
const DEEP = `${'['.repeat(70)}${']'.repeat(70)}`;

/** Values put in place of a field: wrong types, injection, huge, deep, odd text. */
const FIELD_VALUES: [string, string][] = [
  ['operator injection', '{"$gt":""}'],
  ['$where', '{"$where":"sleep(1000)"}'],
  ['array', '["x"]'],
  ['null', 'null'],
  ['boolean', 'true'],
  ['negative', '-1'],
  ['float', '1.5e308'],
  ['big integer', '123456789012345678901234567890'],
  ['empty string', '""'],
  ['huge string', JSON.stringify(HUGE)],
  ['lone surrogate and NUL', '"\\ud800\\u0000%ZZ"'],
  ['deep', DEEP],
];

/** Whole bodies that are not what any route takes. */
const BODY_SHAPES: [string, string | undefined, string?][] = [
  ['malformed JSON', '{"a":'],
  ['array body', '[]'],
  ['string body', '"text"'],
  ['number body', '42'],
  ['null body', 'null'],
  ['empty object', '{}'],
  ['prototype keys', '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}'],
  ['deep body', `{"a":${DEEP}}`],
  ['plain text', 'a=b', 'text/plain'],
  ['utf-16 charset', '{}', 'application/json; charset=utf-16'],
  ['no body', undefined],
];

/** Path parameter values: plausible, wrong, and malformed percent-encoding. */
const PATH_VALUES = [
  '0123456789abcdef01234567',
  'nobody',
  '%ZZ',
  '%C0%AE',
  '%7B%22%24gt%22%3A%22%22%7D',
  'a'.repeat(2000),
];

/** Query strings for a parameter `name`. */
const queryValues = (name: string) => [
  `${name}=%ZZ`,
  `${name}[$gt]=`,
  `${name}=a&${name}=b`,
  `${name}=${'q'.repeat(10_000)}`,
  `${name}=-1`,
  `${encodeURIComponent(name)}=%00`,
];

/** Strings tried, in order, for a string schema with a `pattern`: the first that matches is the sample. */
const STRING_CANDIDATES = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  `0x${'ab'.repeat(32)}`,
  '0123456789abcdef01234567',
  '1',
  'village:square',
  'x',
];
const FORMATS: Record<string, string> = {
  email: 'fuzz@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2026-01-01T00:00:00.000Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function sampleString(schema: JsonSchema): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  const pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined;
  const found = pattern ? STRING_CANDIDATES.find((candidate) => pattern.test(candidate)) : undefined;
  return found ?? 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

function resolve(schema: JsonSchema | undefined, doc: OpenApiDocument): JsonSchema {
  if (!schema?.$ref) return schema ?? {};
  return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''], doc);
}

/** A value of the schema's shape (the first enum value, a one-character string, 1, one item per array). */
export function sampleOf(schemaRef: JsonSchema | undefined, doc: OpenApiDocument, depth = 0): unknown {
  const schema = resolve(schemaRef, doc);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return sampleOf(variant, doc, depth);
  if (schema.allOf?.length)
    return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, doc, depth)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    if (depth > 4) return {};
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value, doc, depth + 1)]),
    );
  }
  if (type === 'array') return depth > 4 ? [] : [sampleOf(schema.items, doc, depth + 1)];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return sampleString(schema);
}

/** Paths to every field of a sample: top-level keys and the keys of objects inside its first array items. */
function fieldPaths(sample: unknown): string[][] {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return [];
  return Object.entries(sample).flatMap(([key, value]) => {
    const nested =
      Array.isArray(value) && typeof value[0] === 'object' && value[0] !== null
        ? Object.keys(value[0] as object).map((inner) => [key, '0', inner])
        : [];
    return [[key], ...nested];
  });
}

/** The sample as JSON text with the field at `path` replaced by the raw JSON `raw`. */
function withField(sample: unknown, path: string[], raw: string): string {
  const marker = '"__fuzz_value__"';
  const copy = JSON.parse(JSON.stringify(sample)) as Record<string, unknown>;
  let target: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path[path.length - 1]] = '__fuzz_value__';
  return JSON.stringify(copy).replace(marker, raw);
}

/**
 * Every fuzz case of the document, with `credentials` credentials besides "none": structural cases (body shapes,
 * path values, query values) with every credential, field mutations with one credential each, in turn.
 */
export function fuzzCases(doc: OpenApiDocument, credentials: number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  let turn = 0;
  const everyCredential = (base: Omit<FuzzCase, 'credential'>) => {
    for (let credential = 0; credential <= credentials; credential++) cases.push({ ...base, credential });
  };
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const parameters = operation.parameters ?? [];
      const concrete = template.replace(/\{[^}]+\}/g, PATH_VALUES[0]);
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const sample = schema ? sampleOf(schema, doc) : undefined;
      const body = sample === undefined ? undefined : JSON.stringify(sample);
      const label = `${method.toUpperCase()} ${template}`;
      everyCredential({ method, path: concrete, body, label: `${label} sample` });
      if (parameters.some((p) => p.in === 'path')) {
        for (const value of PATH_VALUES.slice(1)) {
          const path = template.replace(/\{[^}]+\}/g, value);
          everyCredential({ method, path, body, label: `${label} path ${value.slice(0, 20)}` });
        }
      }
      for (const parameter of parameters.filter((p) => p.in === 'query')) {
        for (const query of queryValues(parameter.name)) {
          cases.push({
            method,
            path: `${concrete}?${query}`,
            credential: turn++ % (credentials + 1),
            label: `${label} query ${query.slice(0, 30)}`,
          });
        }
      }
      if (!schema) continue;
      for (const [shape, text, contentType] of BODY_SHAPES)
        everyCredential({ method, path: concrete, body: text, contentType, label: `${label} ${shape}` });
      for (const field of fieldPaths(sample)) {
        for (const [name, raw] of FIELD_VALUES) {
          cases.push({
            method,
            path: concrete,
            body: withField(sample, field, raw),
            credential: turn++ % (credentials + 1),
            label: `${label} ${field.join('.')}=${name}`,
          });
        }
      }
    }
  }
  return cases;
}
