import { Wallet } from 'ethers';
import request from 'supertest';
import { z } from 'zod';
import type { ServiceRegistrar } from '../../../platform/app';
import type { PlatformContext, ProductParts } from '../../../platform/platform';
import { createAuthService } from '../../../services/auth';
import { signInWithWallet } from '../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

const SERVICE_TOKEN = 'service-token-for-guard-tests-0123';
const admin = Wallet.createRandom();

/** The identity service plus routes behind each guard, as another service area would mount them. */
async function partsWithGuardedRoutes(context: PlatformContext): Promise<ProductParts> {
  const auth = createAuthService(context);
  const guarded: ServiceRegistrar = (routes) => {
    const probe = (path: string, middleware: typeof auth.guard.requireUser) =>
      routes.add({
        method: 'get',
        path,
        summary: `Guard probe ${path}`,
        tags: ['test'],
        security: 'bearer',
        middleware,
        responses: { 200: { description: 'Allowed', schema: z.object({ caller: z.string() }) } },
        handler: ({ req }) => ({ status: 200, body: { caller: req.principal?.kind } }),
      });
    probe('/probe/brain', auth.guard.requireBrainAuth);
    probe('/probe/user', auth.guard.requireUser);
    probe('/probe/tier/3', auth.guard.requireTier(3));
    probe('/probe/operator', auth.guard.requireRole('operator'));
    probe('/probe/service-or-operator', auth.guard.requireServiceOrRole('operator'));
  };
  return { services: [auth.register, guarded], close: () => auth.close() };
}

describe('route guards', () => {
  let server: TestPlatform;
  let player: string;
  let adminSession: string;

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', BRAIN_SERVICE_TOKEN: SERVICE_TOKEN, ADMIN_ADDRESSES: admin.address },
      partsWithGuardedRoutes,
    );
    player = (await signInWithWallet(server.url, Wallet.createRandom())).body.token;
    adminSession = (await signInWithWallet(server.url, admin)).body.token;
  });
  afterAll(() => server.stop());

  const get = (path: string, token?: string) => {
    const req = request(server.url).get(path);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };

  it('requireBrainAuth admits users and the service token, and nobody else', async () => {
    expect((await get('/probe/brain', player)).body).toEqual({ caller: 'user' });
    expect((await get('/probe/brain', SERVICE_TOKEN)).body).toEqual({ caller: 'service' });
    const anonymous = await get('/probe/brain');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
    // Same length as the service token, one character off.
    const wrong = await get('/probe/brain', `${SERVICE_TOKEN.slice(0, -1)}4`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_CREDENTIAL');
  });

  it('requireServiceOrRole admits the service token and the role (or above), refusing players 403', async () => {
    expect((await get('/probe/service-or-operator', SERVICE_TOKEN)).body).toEqual({ caller: 'service' });
    expect((await get('/probe/service-or-operator', adminSession)).body).toEqual({ caller: 'user' });
    const refused = await get('/probe/service-or-operator', player);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'ROLE_REQUIRED',
      detail: 'Requires the service token or the operator role',
    });
    const anonymous = await get('/probe/service-or-operator');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHENTICATED');
  });

  it('requireUser refuses the service token with 403 USER_SESSION_REQUIRED: it is not a user', async () => {
    expect((await get('/probe/user', player)).status).toBe(200);
    const service = await get('/probe/user', SERVICE_TOKEN);
    expect(service.status).toBe(403);
    expect(service.body).toMatchObject({
      code: 'USER_SESSION_REQUIRED',
      detail: 'This route acts for a signed-in user; the service token is not a user session',
    });
    expect((await get('/probe/user')).body).toMatchObject({
      code: 'UNAUTHENTICATED',
      detail: 'Sign in first',
    });
  });

  it('requireTier answers 403 TIER_REQUIRED below the tier', async () => {
    const res = await get('/probe/tier/3', player);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      code: 'TIER_REQUIRED',
      detail: 'Requires identity tier 3 (Trusted) or above',
    });
    expect((await get('/probe/tier/3')).status).toBe(401);
  });

  it('requireRole admits the role and the roles above it', async () => {
    const denied = await get('/probe/operator', player);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'ROLE_REQUIRED', detail: 'Requires the operator role' });
    expect((await get('/probe/operator', adminSession)).status).toBe(200);

    const playerId = (await get('/auth/me', player)).body.id as string;
    await request(server.url)
      .put(`/auth/users/${playerId}/roles`)
      .set('Authorization', `Bearer ${adminSession}`)
      .send({ roles: ['operator'] })
      .expect(200);
    expect((await get('/probe/operator', player)).status).toBe(200);
    const service = await get('/probe/operator', SERVICE_TOKEN);
    expect([service.status, service.body.code]).toEqual([403, 'USER_SESSION_REQUIRED']);
  });
});
