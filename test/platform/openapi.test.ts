import request from 'supertest';
import { z } from 'zod';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { ApiRoutes } from '../../platform/http/routes';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/** A service used only by this test: one route with every kind of schema, behind a bearer credential. */
function widgetService(routes: ApiRoutes) {
  routes.add({
    method: 'put',
    path: '/widgets/:kind',
    summary: 'Store a widget',
    tags: ['widgets'],
    security: 'bearer',
    request: {
      params: z.object({ kind: z.enum(['round', 'square']) }),
      query: z.object({ limit: z.coerce.number().int().max(50).optional() }),
      body: z.object({ name: z.string().min(1), size: z.number().int().positive() }),
    },
    responses: { 201: { description: 'Stored', schema: z.object({ id: z.string(), name: z.string() }) } },
    handler: ({ body }) => ({ status: 201, body: { id: 'w1', name: body.name } }),
  });
}

describe('/openapi.json', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({}, { services: [widgetService] });
  });
  afterAll(() => server.stop());

  it('serves a valid OpenAPI 3.1 document of the routes that exist', async () => {
    const res = await request(server.url).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/healthz',
      '/metrics',
      '/readyz',
      '/widgets/{kind}',
    ]);
    expect(res.body.paths['/readyz'].get.responses['500'].content['application/problem+json'].schema).toEqual(
      {
        $ref: '#/components/schemas/Problem',
      },
    );
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes parameters, body, responses and security from the route’s zod schemas', async () => {
    const operation = (await request(server.url).get('/openapi.json')).body.paths['/widgets/{kind}'].put;
    expect(operation.security).toEqual([{ bearer: [] }]);
    expect(operation.parameters).toHaveLength(2);
    expect(operation.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          in: 'path',
          name: 'kind',
          required: true,
          schema: { type: 'string', enum: ['round', 'square'] },
        }),
        expect.objectContaining({
          in: 'query',
          name: 'limit',
          required: false,
          schema: expect.objectContaining({ maximum: 50 }),
        }),
      ]),
    );
    expect(operation.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, size: { type: 'integer', exclusiveMinimum: 0 } },
      required: ['name', 'size'],
    });
    expect(operation.responses['201'].content['application/json'].schema).toMatchObject({
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    });
    expect(Object.keys(operation.responses).sort()).toEqual(['201', '400', '401', '429', '500', 'default']);
    // Any other error status is a problem, declared once as the operation's default response.
    expect(operation.responses.default.content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    });
  });
});
