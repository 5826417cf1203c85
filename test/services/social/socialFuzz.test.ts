import request from 'supertest';
import { fuzzCases, type OpenApiDocument } from '../../platform/hardening/fuzz/fuzzCases';
import { SOCIAL_SERVICE_TOKEN, signUp, startSocialPlatform, type SocialPlatform } from './socialPlatform';

/**
 * The whole-product fuzz (test/platform/hardening/openapiFuzz.test.ts) over the social routes only, on a platform
 * with just identity and the social area: every case with no credential, a player, the service token and an admin
 * answers without a 5xx, and every error is problem JSON.
 */
describe('social routes under fuzzing', () => {
  let platform: SocialPlatform;

  beforeAll(async () => {
    platform = await startSocialPlatform();
  });
  afterAll(() => platform.stop());

  it('answers every case of every /social operation without a 5xx, errors as problem JSON', async () => {
    const doc = (await request(platform.url).get('/openapi.json').expect(200)).body as OpenApiDocument;
    const social = {
      ...doc,
      paths: Object.fromEntries(Object.entries(doc.paths).filter(([path]) => path.startsWith('/social/'))),
    };
    // Nine SPEC operations (fren and foe each with DELETE too) and the rest: 20 operations on 16 paths.
    expect(Object.values(social.paths).flatMap((item) => Object.keys(item as object))).toHaveLength(20);
    const cases = fuzzCases(social, 3);
    const tokens = [
      undefined,
      (await signUp(platform.url)).token,
      SOCIAL_SERVICE_TOKEN,
      (await signUp(platform.url, platform.admin)).token,
    ];
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const fuzz of cases) {
      const call = request(platform.url)[fuzz.method as 'get'](fuzz.path);
      const token = tokens[fuzz.credential];
      if (token) call.set('Authorization', `Bearer ${token}`);
      const res = await (fuzz.body === undefined
        ? call
        : call.set('Content-Type', fuzz.contentType ?? 'application/json').send(fuzz.body));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500)
        failures.push(`${fuzz.label} [${fuzz.credential}]: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.status >= 400 && !/^application\/problem\+json/.test(res.headers['content-type'] ?? '')) {
        failures.push(`${fuzz.label} [${fuzz.credential}]: error as ${res.headers['content-type']}`);
      }
    }
    expect(failures).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(10);
  }, 120_000);
});
