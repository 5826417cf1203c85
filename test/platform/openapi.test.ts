import request from 'supertest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestPlatform, type TestPlatform } from '../helpers/platform';

describe('/openapi.json', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform();
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
    expect(Object.keys(res.body.paths).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
    expect(res.body.paths['/readyz'].get.responses['500'].content['application/problem+json'].schema).toEqual(
      {
        $ref: '#/components/schemas/Problem',
      },
    );
    expect(res.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
