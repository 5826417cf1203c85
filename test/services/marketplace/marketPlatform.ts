import { Wallet } from 'ethers';
import request from 'supertest';
import type { Clock } from '../../../platform/clock';
import type { TestPlatform } from '../../helpers/platform';
import { type Player, act, signIn, startWorldPlatform } from '../mud/worldPlatform';

/** The service token of marketplace test platforms. */
export const MARKET_SERVICE_TOKEN = 'market-service-token-0123456789';

/** The whole product (world, economy, marketplace) with an admin wallet. */
export async function startMarketPlatform(clock?: Clock) {
  const admin = Wallet.createRandom();
  const server = await startWorldPlatform(
    { BRAIN_SERVICE_TOKEN: MARKET_SERVICE_TOKEN, ADMIN_ADDRESSES: admin.address },
    clock,
  );
  return { server, admin: await signIn(server.url, admin) };
}

let keys = 0;
/** A fresh idempotency key. */
export function newKey(prefix = 'key'): string {
  keys += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${keys}`;
}

/** Helpers bound to one platform. */
export function marketClient(server: TestPlatform) {
  const url = server.url;
  const auth = (player: Player) => ({ Authorization: `Bearer ${player.token}` });
  return {
    fund: (player: Player, amount: number) =>
      request(url)
        .post('/economy/grants')
        .set('Authorization', `Bearer ${MARKET_SERVICE_TOKEN}`)
        .send({
          user_id: player.userId,
          currency: 'soft',
          amount: String(amount),
          reason: 'test',
          idempotency_key: newKey('fund'),
        })
        .expect(201),
    wallet: async (player: Player) =>
      (await request(url).get('/economy/wallet').set(auth(player)).expect(200)).body,
    list: (player: Player, body: object) =>
      request(url).post('/marketplace/listings').set(auth(player)).send(body),
    buy: (player: Player, id: string, key = newKey('buy')) =>
      request(url).post(`/marketplace/listings/${id}/buy`).set(auth(player)).send({ idempotency_key: key }),
    cancel: (player: Player, id: string) =>
      request(url).delete(`/marketplace/listings/${id}`).set(auth(player)),
    search: (query: string) => request(url).get(`/marketplace/search?${query}`),
    audit: async (admin: Player) =>
      (await request(url).get('/admin/economy/audit').set(auth(admin)).expect(200)).body,
    /** The count of `item` in the player's saved character. */
    holding: async (player: Player, item: string) => {
      const doc = await server.platform.stores.mongo
        .collection('characters')
        .findOne({ userId: player.userId });
      return (doc?.inventory as Record<string, number> | undefined)?.[item] ?? 0;
    },
    act: (player: Player, body: object, path?: string) => act(url, player, body, path),
  };
}
