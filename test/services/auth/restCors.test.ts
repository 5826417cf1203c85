import request from 'supertest';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

describe('CORS on the REST routes', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({ SIWE_ALLOWED_ORIGINS: 'https://play.example' }, productParts);
  });
  afterAll(() => server.stop());

  it.each(['/mud/action', '/brain/search', '/auth/guest', '/economy/transfer', '/marketplace/listings'])(
    'answers a preflight for %s from an allowed origin, and none from others',
    async (path) => {
      const allowed = await request(server.url)
        .options(path)
        .set('Origin', 'https://play.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(allowed.status).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://play.example');
      expect(allowed.headers['access-control-allow-headers']).toBe(
        'Authorization,Content-Type,Idempotency-Key,X-Request-Id',
      );
      const other = await request(server.url)
        .options(path)
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    },
  );
});
