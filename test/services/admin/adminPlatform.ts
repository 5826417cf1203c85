import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The service token of admin test platforms. */
export const ADMIN_SERVICE_TOKEN = 'admin-service-token-0123456789';

/** A signed-in user: their token, id and wallet. */
export interface SignedIn {
  token: string;
  userId: string;
  wallet: BaseWallet;
}

/** Signs a wallet (a new one by default) in through the public routes. */
export async function signIn(url: string, wallet: BaseWallet = Wallet.createRandom()): Promise<SignedIn> {
  const { body } = await signInWithWallet(url, wallet);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id, wallet };
}

/** The whole product (no game role) with wallet sign-in, the service token and an admin wallet. */
export async function startAdminPlatform(env: Record<string, string> = {}, clock?: Clock) {
  const adminWallet = Wallet.createRandom();
  const server: TestPlatform = await startTestPlatform(
    {
      SIWE_ENABLED: '1',
      BRAIN_SERVICE_TOKEN: ADMIN_SERVICE_TOKEN,
      ADMIN_ADDRESSES: adminWallet.address,
      ...env,
    },
    productParts,
    clock,
  );
  const admin = await signIn(server.url, adminWallet);
  const as = (user: SignedIn | undefined, method: 'get' | 'post' | 'put', path: string) => {
    const req = request(server.url)[method](path);
    return user ? req.set('Authorization', `Bearer ${user.token}`) : req;
  };
  return { server, admin, as };
}

/** A grant of soft currency by the service token (an `economy.grant` audit event). */
export function grant(url: string, userId: string, amount: number, key: string) {
  return request(url)
    .post('/economy/grants')
    .set('Authorization', `Bearer ${ADMIN_SERVICE_TOKEN}`)
    .send({
      user_id: userId,
      currency: 'soft',
      amount: String(amount),
      reason: 'quest bonus',
      idempotency_key: key,
    })
    .expect(201);
}
