import request from 'supertest';
import type { PlatformContext } from '../../../../platform/platform';
import { createAuthService } from '../../../../services/auth';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

/** Only the identity area, without OIDC_ISSUER_URL. */
const identityOnly = (context: PlatformContext) => {
  const auth = createAuthService(context);
  return { services: [auth.register], close: () => auth.close() };
};

describe('single sign-on routes without OIDC_ISSUER_URL', () => {
  let server: TestPlatform;
  beforeAll(async () => {
    server = await startTestPlatform({}, identityOnly);
  });
  afterAll(() => server.stop());

  it.each([
    ['post', '/auth/oidc/start'],
    ['get', '/auth/oidc/callback?code=c&state=s'],
  ] as const)('%s %s answers 501 OIDC_DISABLED, as its OpenAPI operation declares', async (method, url) => {
    const res = await request(server.url)[method](url);
    expect(res.status).toBe(501);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('OIDC_DISABLED');
    // The contract fuzz found these statuses answered but undeclared: a client generated from the document must
    // know them.
    const doc = (await request(server.url).get('/openapi.json')).body;
    const operation = doc.paths[url.split('?')[0]][method];
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['501', '503']));
  });
});
