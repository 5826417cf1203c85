import request from 'supertest';
import { z } from 'zod';
import type { ApiRoutes } from '../../platform/http/routes';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

/** Routes answering the same JSON to each method, and one answering 204. */
function replyService(routes: ApiRoutes) {
  const body = { name: 'Forgé', items: [1, 2, 3] };
  // Declared as the answers are (the suite checks every answer against the document: test/setup).
  const schema = z.object({ name: z.string(), items: z.array(z.number()) });
  for (const method of ['get', 'post', 'put', 'delete'] as const) {
    routes.add({
      method,
      path: '/replies/json',
      summary: `JSON answer to ${method}`,
      tags: ['test'],
      responses: { [method === 'post' ? 201 : 200]: { description: 'JSON', schema } },
      handler: () => ({ status: method === 'post' ? 201 : 200, body, headers: { 'X-Reply': method } }),
    });
  }
  routes.add({
    method: 'post',
    path: '/replies/typed',
    summary: 'JSON with its own media type',
    tags: ['test'],
    responses: { 200: { description: 'Typed JSON', schema, mediaType: 'application/vnd.forge+json' } },
    handler: () => ({ status: 200, body, headers: { 'Content-Type': 'application/vnd.forge+json' } }),
  });
  routes.add({
    method: 'post',
    path: '/replies/empty',
    summary: 'No content',
    tags: ['test'],
    request: { body: z.object({}) },
    responses: { 204: { description: 'Nothing' } },
    handler: () => ({ status: 204, body: { ignored: true } }),
  });
}

describe('route replies', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({}, { services: [replyService] });
  });
  afterAll(() => server.stop());

  it.each(['post', 'put', 'delete'] as const)(
    'answers %s with the JSON body, its exact length and no ETag',
    async (method) => {
      const res = await request(server.url)[method]('/replies/json');
      expect(res.status).toBe(method === 'post' ? 201 : 200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(res.headers['x-reply']).toBe(method);
      expect(res.headers.etag).toBeUndefined();
      expect(res.body).toEqual({ name: 'Forgé', items: [1, 2, 3] });
    },
  );

  it('answers GET with an ETag, and 304 without a body when it still matches', async () => {
    const res = await request(server.url).get('/replies/json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Forgé', items: [1, 2, 3] });
    expect(res.headers.etag).toMatch(/^W\/"/);
    const again = await request(server.url)
      .get('/replies/json')
      .set('If-None-Match', res.headers.etag as string);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('answers HEAD with the headers of the GET answer and no body', async () => {
    const get = await request(server.url).get('/replies/json');
    const head = await request(server.url).head('/replies/json');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.text).toBeUndefined();
  });

  it('keeps a media type the handler chose', async () => {
    const res = await request(server.url).post('/replies/typed');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.forge+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({ name: 'Forgé', items: [1, 2, 3] });
  });

  it('sends no body with a 204', async () => {
    const res = await request(server.url).post('/replies/empty').send({});
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-length']).toBeUndefined();
  });
});
