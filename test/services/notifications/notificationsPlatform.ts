import { Wallet, type BaseWallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import { productParts } from '../../../productParts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';
import { signInWithWallet } from '../../helpers/siwe';

/** The service token of notification test platforms (it funds users through `POST /economy/grants`). */
export const SERVICE_TOKEN = 'notifications-service-token-0123456789';

/** A signed-in user: session token, user id, wallet. */
export interface User {
  token: string;
  userId: string;
  wallet: BaseWallet;
}

/** The product's composition (api + worker roles) with wallet sign-in on and the service token set. */
export function startNotificationsPlatform(
  env: Record<string, string> = {},
  clock?: Clock,
): Promise<TestPlatform> {
  return startTestPlatform(
    { SIWE_ENABLED: '1', BRAIN_SERVICE_TOKEN: SERVICE_TOKEN, ...env },
    productParts,
    clock,
  );
}

/** Signs a new wallet (or `wallet`) in; with `token`, links it to that signed-in user instead. */
export async function signIn(
  url: string,
  wallet: BaseWallet = Wallet.createRandom(),
  token?: string,
): Promise<User> {
  const { body } = await signInWithWallet(url, wallet, token);
  const me = await request(url).get('/auth/me').set('Authorization', `Bearer ${body.token}`).expect(200);
  return { token: body.token, userId: me.body.id, wallet };
}

let keys = 0;

/** Grants soft coins to `userId` with the service token. */
export async function fund(url: string, userId: string, amount: number): Promise<void> {
  await request(url)
    .post('/economy/grants')
    .set('Authorization', `Bearer ${SERVICE_TOKEN}`)
    .send({
      user_id: userId,
      currency: 'soft',
      amount: String(amount),
      reason: 'test',
      idempotency_key: `fund-key-${process.pid}-${++keys}`,
    })
    .expect(201);
}

/** `from` sends `amount` soft coins to `to` (201). */
export async function transfer(
  url: string,
  from: User,
  to: User,
  amount: number,
  memo?: string,
): Promise<void> {
  await request(url)
    .post('/economy/transfer')
    .set('Authorization', `Bearer ${from.token}`)
    .send({
      to_user_id: to.userId,
      currency: 'soft',
      amount: String(amount),
      idempotency_key: `transfer-key-${process.pid}-${++keys}`,
      ...(memo ? { memo } : {}),
    })
    .expect(201);
}

/** `GET /notifications` as `user` (query string optional). */
export function listNotifications(url: string, user: User, query = '') {
  return request(url).get(`/notifications${query}`).set('Authorization', `Bearer ${user.token}`);
}

/** Lists `user`'s notifications until `done(body)` (publishing is fire and forget); fails after 5 s. */
export async function listWhen(
  url: string,
  user: User,
  done: (body: { notifications: Array<{ kind: string; payload: Record<string, unknown> }> }) => boolean,
  query = '',
) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const { body } = await listNotifications(url, user, query).expect(200);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`notifications never matched: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
