import request from 'supertest';
import { productParts } from '../../productParts';
import { InProcessMemoryService } from '../helpers/inProcessMemory';
import { OpenApiValidator, type OpenApiDocument } from '../helpers/openapiValidator';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

const SERVICE_TOKEN = 'contract-service-token-0123456789abcdef';
/** The whole product starts here; that takes longer than a test on a loaded machine. */
const SETUP_TIMEOUT_MS = 120_000;

/** Every `pattern` and `format` keyword in `node`, with its JSON pointer (example values are data, not schemas). */
function stringKeywords(node: unknown, pointer = '#'): { pointer: string; keyword: string; value: string }[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => stringKeywords(item, `${pointer}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if ((key === 'pattern' || key === 'format') && typeof value === 'string')
      return [{ pointer: at, keyword: key, value }];
    return key === 'example' || key === 'examples' ? [] : stringKeywords(value, at);
  });
}

/**
 * /openapi.json of the whole product as a client author's JSON Schema 2020-12 tooling reads it (ajv with
 * ajv-formats, strict): every pattern and format compiles, every schema compiles, examples satisfy their schemas,
 * and real answers match the schemas declared for their status.
 */
describe('/openapi.json read by a standard JSON Schema validator', () => {
  let server: TestPlatform;
  let document: OpenApiDocument;
  let validator: OpenApiValidator;

  beforeAll(async () => {
    server = await startTestPlatform({ BRAIN_SERVICE_TOKEN: SERVICE_TOKEN }, (context) =>
      productParts(context, { memory: new InProcessMemoryService() }),
    );
    document = (await request(server.url).get('/openapi.json')).body as OpenApiDocument;
    validator = new OpenApiValidator(document);
  }, SETUP_TIMEOUT_MS);
  afterAll(() => server.stop());

  it('compiles every pattern and format in strict mode, and no pattern carries a JavaScript flag', () => {
    const keywords = stringKeywords(document);
    expect(keywords.filter((k) => k.keyword === 'pattern').length).toBeGreaterThan(10);
    expect(keywords.filter((k) => k.keyword === 'format').length).toBeGreaterThan(10);
    const failures = keywords.flatMap(({ pointer, keyword, value }) => {
      try {
        validator.compile({ type: 'string', [keyword]: value });
        return /(?<!\\)\/[dgimsuvy]+$/.test(value) ? [`${pointer}: ${value} ends with a flag`] : [];
      } catch (error) {
        return [`${pointer}: ${(error as Error).message}`];
      }
    });
    expect(failures).toEqual([]);
  });

  it('compiles every declared schema, and every example satisfies the schema it illustrates', () => {
    const schemas = validator.schemas();
    expect(schemas.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const { pointer, schema } of schemas) {
      try {
        validator.compile(schema);
      } catch (error) {
        failures.push(`${pointer}: ${(error as Error).message}`);
      }
    }
    for (const { pointer, schema } of schemas)
      for (const { at, example, node } of examplesIn(schema, pointer)) {
        const validate = validator.compile({ ...node, example: undefined });
        if (!validate(example))
          failures.push(`${at}: its example ${JSON.stringify(example)} fails its schema`);
      }
    expect(failures).toEqual([]);
  });

  it('accepts display names as the server does: the published pattern against the real route', async () => {
    const pattern = validator.compile({ $ref: '#/components/schemas/GuestSignInRequest' });
    for (const display_name of ['Åsa of Thornwick', 'Ann 2', 'two  spaces', 'dash-ed']) {
      const res = await request(server.url).post('/auth/guest').send({ display_name });
      expect({ display_name, status: res.status }).toEqual({
        display_name,
        status: pattern({ display_name }) ? 201 : 400,
      });
    }
  });

  it('validates real public, player and service-token answers, errors included, against their schemas', async () => {
    const guest = await request(server.url).post('/auth/guest').send({ display_name: 'Þóra Contract' });
    const player = guest.body.token as string;
    const answers = [
      ['post', '/auth/guest', guest],
      ['get', '/healthz', await request(server.url).get('/healthz')],
      ['get', '/brain/stats', await request(server.url).get('/brain/stats')],
      ['get', '/marketplace/search', await request(server.url).get('/marketplace/search?q=sword')],
      ['get', '/auth/me', await request(server.url).get('/auth/me').auth(player, { type: 'bearer' })],
      [
        'put',
        '/auth/me',
        await request(server.url)
          .put('/auth/me')
          .auth(player, { type: 'bearer' })
          .send({ display_name: 'Þóra 2' }),
      ],
      [
        'get',
        '/economy/wallet',
        await request(server.url).get('/economy/wallet').auth(player, { type: 'bearer' }),
      ],
      [
        'get',
        '/brain/decisions',
        await request(server.url).get('/brain/decisions').auth(SERVICE_TOKEN, { type: 'bearer' }),
      ],
      [
        'get',
        '/social/brain/stats',
        await request(server.url).get('/social/brain/stats').auth(SERVICE_TOKEN, { type: 'bearer' }),
      ],
      ['post', '/auth/guest', await request(server.url).post('/auth/guest').send({ display_name: 'a  b' })],
      ['get', '/auth/me', await request(server.url).get('/auth/me')],
    ] as const;
    expect(answers.map(([, , res]) => res.status)).toEqual([
      201, 200, 200, 200, 200, 200, 200, 200, 200, 400, 401,
    ]);
    const failures = answers.flatMap(([method, path, res]) =>
      validator
        .responseErrors(method, path, { status: res.status, headers: res.headers, body: res.body })
        .map((error) => `${method.toUpperCase()} ${path} ${res.status}: ${error}`),
    );
    expect(failures).toEqual([]);
    // The check bites: a wrong field and an undeclared status are both reported.
    const tampered = { ...guest.body, expires_at: 'tomorrow' };
    expect(validator.responseErrors('post', '/auth/guest', { ...guest, body: tampered })).toEqual([
      '/expires_at must match format "date-time"',
    ]);
    expect(validator.responseErrors('post', '/auth/guest', { ...guest, status: 418 })).toEqual([
      'post /auth/guest does not declare status 418',
    ]);
  });
});

/** Every sub-schema of `schema` that carries an `example`, with the example and where it is. */
function examplesIn(
  schema: unknown,
  pointer: string,
): { at: string; example: unknown; node: Record<string, unknown> }[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => examplesIn(item, `${pointer}/${i}`));
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const own = 'example' in node ? [{ at: pointer, example: node.example, node }] : [];
  return [
    ...own,
    ...Object.entries(node)
      .filter(([key]) => key !== 'example')
      .flatMap(([key, value]) => examplesIn(value, `${pointer}/${key}`)),
  ];
}
