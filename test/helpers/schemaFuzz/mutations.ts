import { fieldPaths, resolveSchema, sampleOf, type JsonSchema, type SchemaComponents } from './schemaSamples';

/** One operation of the document, as the fuzz reads it. */
export interface FuzzOperation {
  method: string;
  /** The path template, `/brain/decisions/{id}`. */
  template: string;
  parameters: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  /** The JSON body's schema, if the operation takes one. */
  body?: JsonSchema;
  /** The statuses the operation declares. */
  statuses: string[];
}

/** One request to send: a valid one, or a valid one with one thing changed (`kind` says what). */
export interface FuzzRequest {
  method: string;
  /** Path and query string, percent-encoded as sent. */
  path: string;
  headers: Record<string, string>;
  /** Raw body text; a JSON body is sent as `application/json` unless `headers` say otherwise. */
  body?: string;
  kind: string;
  label: string;
}

const HUGE_STRING = JSON.stringify('x'.repeat(100_000));
const nest = (depth: number, open: string, close: string, inner: string) =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Field values by kind, as raw JSON: each replaces one field of a valid body (or the value of a query parameter). */
const FIELD_VALUES: Record<string, [string, string][]> = {
  mistyped: [
    ['number', '42'],
    ['string', '"1"'],
    ['boolean', 'true'],
    ['null', 'null'],
    ['array', '["x"]'],
    ['object', '{"a":1}'],
  ],
  huge: [
    ['100 KB string', HUGE_STRING],
    ['20,000 items', `[${Array(20_000).fill('1').join(',')}]`],
  ],
  unicode: [
    ['scripts and emoji', '"Åsa 🐉 漢字 ﷽ e\\u0301"'],
    ['lone surrogate', '"a\\ud800b"'],
    ['NUL and controls', '"a\\u0000\\u001b[31mb"'],
    ['bidi and zero-width', '"\\u202eevil\\u200b\\ufeff"'],
  ],
  numeric: [
    ['1e308', '1e308'],
    ['-1e308', '-1e308'],
    ['2^53+1', '9007199254740993'],
    ['-2^53-1', '-9007199254740993'],
    ['30 digits', '123456789012345678901234567890'],
    ['-0', '-0'],
    ['0.5', '0.5'],
    ['-1', '-1'],
    ['denormal', '5e-324'],
  ],
  deep: [
    ['60 objects', nest(60, '{"a":', '}', '1')],
    ['60 arrays', nest(60, '[', ']', '1')],
    ['70 arrays (over the limit)', nest(70, '[', ']', '')],
  ],
  prototype: [
    ['__proto__', '{"__proto__":{"admin":true,"roles":["admin"]}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"admin":true}}}'],
    ['operator injection', '{"$gt":""}'],
  ],
};

/** Path segments in place of a path parameter: odd, malformed, traversing, huge. */
const PATH_SEGMENTS = [
  '%ZZ',
  '%C0%AE',
  '..',
  '%2e%2e%2F%2e%2e%2Fetc%2Fpasswd',
  '%00',
  '__proto__',
  'constructor',
  '%F0%9F%90%89',
  '-1',
  '1e308',
  'a'.repeat(2000),
];

/** Bodies under the wrong (or no) content type, and broken JSON. */
const CONTENT_TYPES: [string, string | undefined, string][] = [
  ['text/plain', 'text/plain', 'a=b'],
  ['form', 'application/x-www-form-urlencoded', 'a=b&__proto__[admin]=1'],
  ['multipart', 'multipart/form-data; boundary=x', '--x\r\n\r\nb\r\n--x--'],
  ['xml', 'application/xml', '<a/>'],
  ['utf-16 charset', 'application/json; charset=utf-16', '{}'],
  ['no content type', undefined, '{}'],
  ['malformed JSON', 'application/json', '{"a":'],
  ['array body', 'application/json', '[]'],
  ['null body', 'application/json', 'null'],
];

/** Header sections past Node's 16 KB: every one should be a 431 problem. */
const OVERSIZED_HEADERS: [string, Record<string, string>, string][] = [
  ['20 KB header', { 'X-Fuzz': 'h'.repeat(20_000) }, ''],
  ['40 KB bearer token', { Authorization: `Bearer ${'t'.repeat(40_000)}` }, ''],
  ['40 KB cookie', { Cookie: `session=${'c'.repeat(40_000)}` }, ''],
  ['100 KB query', {}, `q=${'q'.repeat(100_000)}`],
];

/** A sample value of every parameter `where` (path, query), by name. */
function parameterSamples(op: FuzzOperation, where: string, components: SchemaComponents) {
  return op.parameters
    .filter((p) => p.in === where)
    .map((p) => ({ name: p.name, value: String(sampleOf(p.schema, components) ?? 'x') }));
}

function withQuery(path: string, query: string): string {
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** The sample as JSON text with the field at `path` replaced by raw JSON (or removed when `raw` is undefined). */
function withField(sample: unknown, path: string[], raw: string | undefined): string {
  const copy = JSON.parse(JSON.stringify(sample)) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path[path.length - 1];
  if (raw === undefined) {
    delete target[last];
    return JSON.stringify(copy);
  }
  target[last] = '__fuzz_value__';
  return JSON.stringify(copy).replace('"__fuzz_value__"', () => raw);
}

/** The valid request of an operation, and every mutation of it (each changes one thing). */
export function requestsOf(op: FuzzOperation, components: SchemaComponents): FuzzRequest[] {
  const label = `${op.method.toUpperCase()} ${op.template}`;
  const pathParams = parameterSamples(op, 'path', components);
  const queryParams = parameterSamples(op, 'query', components);
  const pathWith = (name?: string, segment?: string) =>
    op.template.replace(/\{([^}]+)\}/g, (_m, param: string) =>
      param === name && segment !== undefined
        ? segment
        : encodeURIComponent(pathParams.find((p) => p.name === param)?.value ?? 'x'),
    );
  const query = (replace?: string, raw?: string) =>
    queryParams
      .filter((p) => p.name !== replace || raw !== undefined)
      .map((p) => `${encodeURIComponent(p.name)}=${p.name === replace ? raw : encodeURIComponent(p.value)}`)
      .join('&');
  const validPath = withQuery(pathWith(), query());
  const sample = op.body ? sampleOf(op.body, components) : undefined;
  const validBody = sample === undefined ? undefined : JSON.stringify(sample);
  const request = (kind: string, what: string, changes: Partial<FuzzRequest>): FuzzRequest => ({
    method: op.method,
    path: validPath,
    headers: {},
    body: validBody,
    kind,
    label: `${label} ${what}`,
    ...changes,
  });

  const found: FuzzRequest[] = [request('valid', 'valid', {})];
  if (op.body) {
    for (const field of fieldPaths(sample)) {
      const at = field.join('.');
      found.push(request('missing', `${at} missing`, { body: withField(sample, field, undefined) }));
      for (const [kind, values] of Object.entries(FIELD_VALUES))
        for (const [name, raw] of values)
          found.push(request(kind, `${at}=${name}`, { body: withField(sample, field, raw) }));
    }
    const withPrototypeKeys = { ...(sample as object) };
    Object.defineProperty(withPrototypeKeys, '__proto__', { value: { admin: true }, enumerable: true });
    const protoBody = JSON.stringify({ ...withPrototypeKeys, constructor: { prototype: { admin: true } } });
    found.push(request('prototype', 'top-level __proto__ and constructor', { body: protoBody }));
    for (const [name, type, body] of CONTENT_TYPES)
      found.push(request('content type', name, { body, headers: type ? { 'Content-Type': type } : {} }));
  }
  for (const { name } of pathParams)
    for (const segment of PATH_SEGMENTS)
      found.push(
        request('path segment', `{${name}}=${segment.slice(0, 24)}`, {
          path: withQuery(pathWith(name, segment), query()),
        }),
      );
  for (const { name } of queryParams) {
    const path = (raw?: string) => withQuery(pathWith(), query(name, raw));
    found.push(request('missing', `?${name} missing`, { path: path() }));
    for (const [kind, values] of Object.entries({ ...FIELD_VALUES, huge: [['10 KB', 'q'.repeat(10_000)]] }))
      for (const [what, raw] of values)
        found.push(request(kind, `?${name}=${what}`, { path: path(encodeURIComponent(raw)) }));
    found.push(
      request('prototype', `?${name}[__proto__]`, { path: `${path()}&${name}[__proto__][admin]=1` }),
    );
    found.push(request('path segment', `?${name}=%ZZ`, { path: path('%ZZ') }));
  }
  for (const [name, headers, extraQuery] of OVERSIZED_HEADERS)
    found.push(request('oversized headers', name, { headers, path: withQuery(validPath, extraQuery) }));
  return found;
}

/** The operations of an OpenAPI document, in document order. */
export function operationsOf(doc: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: { schemas?: SchemaComponents };
}): FuzzOperation[] {
  const components = doc.components?.schemas ?? {};
  return Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const op = operation as {
        parameters?: FuzzOperation['parameters'];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        responses?: Record<string, unknown>;
      };
      const body = op.requestBody?.content?.['application/json']?.schema;
      return {
        method,
        template,
        parameters: op.parameters ?? [],
        body: body ? resolveSchema(body, components) : undefined,
        statuses: Object.keys(op.responses ?? {}),
      };
    }),
  );
}
