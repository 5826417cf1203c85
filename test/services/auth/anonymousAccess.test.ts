import request from 'supertest';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

interface Operation {
  security?: unknown[];
}

/**
 * Tier 0 (Anonymous) reaches exactly the public endpoints: every operation the OpenAPI document marks as secured
 * answers 401 without a token, and every other one answers something else. New routes are covered automatically.
 */
describe('anonymous access', () => {
  let server: TestPlatform;
  let operations: { method: string; path: string; secured: boolean }[];

  beforeAll(async () => {
    server = await startTestPlatform({ SIWE_ENABLED: '1' }, productParts);
    const doc = (await request(server.url).get('/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method,
        path: path.replace(/\{[^}]+\}/g, '0123456789abcdef01234567'),
        secured: (operation.security ?? []).length > 0,
      })),
    );
  });
  afterAll(() => server.stop());

  it('has both public and secured operations to check', () => {
    expect(operations.filter((o) => o.secured).length).toBeGreaterThan(0);
    expect(operations.filter((o) => !o.secured).length).toBeGreaterThan(0);
  });

  it('answers 401 on every secured operation and never on a public one', async () => {
    const outcomes = [];
    for (const { method, path, secured } of operations) {
      const res = await (request(server.url) as unknown as Record<string, (p: string) => request.Test>)[
        method
      ]!(path).send({});
      outcomes.push({
        operation: `${method.toUpperCase()} ${path}`,
        secured,
        unauthorized: res.status === 401,
      });
    }
    expect(outcomes.filter((o) => o.secured !== o.unauthorized)).toEqual([]);
  });
});
