import request from 'supertest';
import { z } from 'zod';
import type { ApiRoutes } from '../../platform/http/routes';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

const SECRET = 'sk-live-0123456789abcdef';

/** A service used only by this test: one validated route and one that fails unexpectedly. */
function exampleService(routes: ApiRoutes) {
  routes.add({
    method: 'post',
    path: '/examples/:kind',
    summary: 'Echo a validated example',
    tags: ['examples'],
    request: {
      params: z.object({ kind: z.enum(['a', 'b']) }),
      query: z.object({ limit: z.coerce.number().int().max(50).default(10) }),
      body: z.object({ name: z.string().min(1), tags: z.array(z.string()).max(2) }),
    },
    responses: {
      201: {
        description: 'Created',
        schema: z.object({
          name: z.string(),
          tags: z.array(z.string()),
          limit: z.number(),
          kind: z.string(),
        }),
      },
    },
    handler: ({ body, query, params }) => ({
      status: 201,
      body: { ...body, limit: query.limit, kind: params.kind },
    }),
  });
  routes.add({
    method: 'get',
    path: '/examples/broken',
    summary: 'Always fails',
    tags: ['examples'],
    responses: { 200: { description: 'Never' } },
    handler: () => {
      throw new Error(`database password ${SECRET} rejected`);
    },
  });
}

describe('problem JSON error path', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({ BODY_LIMIT_BYTES: '2048' }, { services: [exampleService] });
  });
  afterAll(() => server.stop());

  it('answers a valid request through the route helper', async () => {
    const res = await request(server.url)
      .post('/examples/a?limit=5')
      .send({ name: 'x', tags: ['t'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ name: 'x', tags: ['t'], limit: 5, kind: 'a' });
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await request(server.url).get('/nowhere?x=1');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({
      type: '/problems/route-not-found',
      title: 'Not Found',
      status: 404,
      detail: 'No route for GET /nowhere',
      instance: '/nowhere?x=1',
      code: 'ROUTE_NOT_FOUND',
      requestId: res.headers['x-request-id'],
    });
  });

  it('answers malformed JSON with 400 MALFORMED_JSON', async () => {
    const res = await request(server.url)
      .post('/examples/a')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 400,
      code: 'MALFORMED_JSON',
      detail: 'The request body is not valid JSON',
    });
  });

  it('answers a zod failure with 400 and every failing path', async () => {
    const res = await request(server.url)
      .post('/examples/c?limit=500')
      .send({ name: '', tags: ['1', '2', '3'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.detail).toBe('The request is invalid: params.kind, query.limit, body.name, body.tags');
    expect(res.body.errors).toEqual([
      { path: 'params.kind', message: 'Invalid option: expected one of "a"|"b"' },
      { path: 'query.limit', message: 'Too big: expected number to be <=50' },
      { path: 'body.name', message: 'Too small: expected string to have >=1 characters' },
      { path: 'body.tags', message: 'Too big: expected array to have <=2 items' },
    ]);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await request(server.url)
      .post('/examples/a')
      .send({ name: 'x'.repeat(4096), tags: [] });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE', title: 'Payload Too Large' });
  });

  it('answers an unexpected error with a bare 500 and logs the cause under the request id', async () => {
    const res = await request(server.url).get('/examples/broken').set('X-Request-Id', 'trace-500-test');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      type: '/problems/internal-error',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred. Quote the request id when reporting it.',
      instance: '/examples/broken',
      code: 'INTERNAL_ERROR',
      requestId: 'trace-500-test',
    });
    expect(res.text).not.toContain(SECRET);
    expect(res.text).not.toContain('at ');
    const logged = server.logs.withMessage('request failed').find((line) => line.reqId === 'trace-500-test');
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('database password');
  });
});
