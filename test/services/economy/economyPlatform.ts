import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import { combineParts } from '../../../productParts';
import { createAuthService } from '../../../services/auth';
import { createEconomyArea, type EconomyArea } from '../../../services/economy';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The service token of economy test platforms. */
export const ECONOMY_SERVICE_TOKEN = 'economy-service-token-0123456789';

/** A platform with identity and the economy only (api + worker roles), and the admin's wallet. */
export interface EconomyPlatform {
  server: TestPlatform;
  area: EconomyArea;
  admin: BaseWallet;
  stop(): Promise<void>;
}

/** A signed-in user: session token, user id and wallet. */
export interface EconomyUser {
  token: string;
  userId: string;
  wallet: BaseWallet;
}

/** Starts identity + economy with SIWE on; `admin` is a bootstrap admin wallet. */
export async function startEconomyPlatform(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<EconomyPlatform> {
  const admin = Wallet.createRandom();
  let area: EconomyArea | undefined;
  const server = await startTestPlatform(
    {
      SIWE_ENABLED: '1',
      BRAIN_SERVICE_TOKEN: ECONOMY_SERVICE_TOKEN,
      ADMIN_ADDRESSES: admin.address,
      ...env,
    },
    async (context) => {
      const auth = createAuthService(context);
      area = await createEconomyArea(context, auth);
      return {
        ...combineParts([{ services: [auth.register], close: () => auth.close() }, area]),
        adminGuard: auth.adminGuard,
      };
    },
    clock,
  );
  return { server, area: area as EconomyArea, admin, stop: () => server.stop() };
}

/** Signs `wallet` (default a new one) in and answers its token and user id. */
export async function signUp(url: string, wallet: BaseWallet = Wallet.createRandom()): Promise<EconomyUser> {
  const { body } = await signInWithWallet(url, wallet);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id, wallet };
}

/** A request with a bearer token. */
export function as(url: string, token: string) {
  return {
    get: (path: string) => request(url).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object) =>
      request(url).post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => request(url).delete(path).set('Authorization', `Bearer ${token}`),
  };
}

let keys = 0;
/** A fresh idempotency key. */
export function newKey(prefix = 'key'): string {
  keys += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${keys}`;
}

/** Grants `amount` of `currency` to `userId` with the service token. */
export async function fund(url: string, userId: string, amount: number, currency = 'soft') {
  await as(url, ECONOMY_SERVICE_TOKEN)
    .post('/economy/grants', {
      user_id: userId,
      currency,
      amount: String(amount),
      reason: 'test funding',
      idempotency_key: newKey('fund'),
    })
    .expect(201);
}
