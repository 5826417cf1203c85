import type { z } from 'zod';

/**
 * What the OpenAPI document may say about a string, so that any JSON Schema 2020-12 validator (ajv, Schemathesis,
 * a generated client) reads it as the server does.
 *
 * - A `pattern` is an ECMA-262 regular expression source without flags, compiled by validators in Unicode mode
 *   (ajv's `unicodeRegExp`). A zod regex may therefore carry no flag but `u`, and its source must compile with `u`:
 *   an `i`, `m`, `s`, `g`, `y`, `d` or `v` flag, or an identity escape such as `\_` that only legacy mode accepts, has
 *   no JSON Schema spelling and is refused when the route is declared.
 * - A `format` is one the JSON Schema and OpenAPI format registries define (the set ajv-formats implements).
 *
 * zod-to-openapi writes a regex as `regex.toString()` with its slashes cut, which leaves the flags inside the
 * pattern (`^a+$/u`); `PublishedStrings` collects the regexes of every declared schema and puts each one's
 * `source` back in their place.
 */
export class PublishedStrings {
  /** Published text as zod-to-openapi writes it → the regex source it should be. */
  private readonly sources = new Map<string, string>();

  /** Records every regex of `schema` (and the schemas inside it); throws `UnpublishableSchemaError` on one. */
  collect(schema: z.ZodType, where: string): void {
    for (const regex of regexesOf(schema)) {
      const problem = regexProblem(regex);
      if (problem) throw new UnpublishableSchemaError(`${where}: the pattern ${String(regex)} ${problem}`);
      this.sources.set(String(regex).replace(/^\/|\/$/g, ''), regex.source);
    }
  }

  /** `document` with every pattern restored to its regex source; throws on a pattern or format no validator reads. */
  publish<T>(document: T): T {
    visitStringKeywords(document, '#', (schema, pointer) => {
      if (typeof schema.pattern === 'string') {
        const pattern = this.sources.get(schema.pattern) ?? schema.pattern;
        schema.pattern = pattern;
        if (!compilesInUnicodeMode(pattern))
          throw new UnpublishableSchemaError(`${pointer}/pattern does not compile in Unicode mode`);
      }
      if (typeof schema.format === 'string' && !STANDARD_FORMATS.has(schema.format))
        throw new UnpublishableSchemaError(`${pointer}/format "${schema.format}" is not a standard format`);
    });
    return document;
  }
}

/** A schema whose contract cannot be written in JSON Schema as the server enforces it: a start-up error. */
export class UnpublishableSchemaError extends Error {
  constructor(message: string) {
    super(`Unpublishable schema: ${message}`);
    this.name = 'UnpublishableSchemaError';
  }
}

/**
 * Formats of JSON Schema 2020-12 and the OpenAPI format registry that standard validators implement (ajv-formats'
 * full set). zod-to-openapi also writes `cuid`, `ulid`, `emoji`, `ip` and others that validators refuse.
 */
export const STANDARD_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

function regexProblem(regex: RegExp): string | undefined {
  const extra = regex.flags.replace('u', '');
  if (extra) return `has the flag "${extra}", which JSON Schema cannot express`;
  if (!compilesInUnicodeMode(regex.source)) return 'does not compile in Unicode mode, as validators read it';
  return undefined;
}

function compilesInUnicodeMode(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

type ZodInternals = { _zod: { def: Record<string, unknown> } };

const isZod = (value: unknown): value is ZodInternals =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** Every regex check in `root` and the schemas it holds (object shapes, items, options, wrapped and lazy schemas). */
function regexesOf(root: z.ZodType): RegExp[] {
  const found: RegExp[] = [];
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) value.forEach(visit);
    else if (isZod(value)) {
      const def = value._zod.def;
      if (def.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp)
        found.push(def.pattern);
      if (def.type === 'lazy' && typeof def.getter === 'function') visit((def.getter as () => unknown)());
      Object.values(def).forEach(visit);
    } else if (
      typeof value === 'object' &&
      value !== null &&
      Object.getPrototypeOf(value) === Object.prototype
    )
      Object.values(value).forEach(visit);
  };
  visit(root);
  return found;
}

type SchemaNode = Record<string, unknown>;

/** Keywords whose values are data, not schemas: a `format` member of an example is not a format keyword. */
const EXAMPLE_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/** Calls `onSchema` for every object in `node` that holds a string `pattern` or `format`, with its JSON pointer. */
function visitStringKeywords(
  node: unknown,
  pointer: string,
  onSchema: (schema: SchemaNode, pointer: string) => void,
): void {
  if (Array.isArray(node)) node.forEach((item, i) => visitStringKeywords(item, `${pointer}/${i}`, onSchema));
  else if (typeof node === 'object' && node !== null) {
    const schema = node as SchemaNode;
    if (typeof schema.pattern === 'string' || typeof schema.format === 'string') onSchema(schema, pointer);
    for (const [key, value] of Object.entries(schema))
      if (typeof value === 'object' && !EXAMPLE_KEYWORDS.has(key))
        visitStringKeywords(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, onSchema);
  }
}
