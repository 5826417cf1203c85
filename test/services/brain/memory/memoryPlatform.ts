import { Wallet } from 'ethers';
import request from 'supertest';
import { startBrainPlatform, SERVICE_TOKEN, type BrainTestPlatform } from '../brainPlatform';
import { signInWithWallet } from '../../../helpers/siwe';

export { SERVICE_TOKEN };

/** A signed-in user: bearer token, user id and memory subject. */
export interface MemoryUser {
  token: string;
  userId: string;
  subject: string;
}

/** A brain platform with wallet sign-in on and a bootstrap admin, for the memory routes. */
export interface MemoryTestPlatform extends BrainTestPlatform {
  /** A new signed-in player. */
  signUp(): Promise<MemoryUser>;
  /** A new signed-in user holding the operator role. */
  operator(): Promise<MemoryUser>;
  /** Requests with a bearer token. */
  as(token: string): {
    get(path: string): request.Test;
    post(path: string, body?: object): request.Test;
    delete(path: string): request.Test;
  };
}

/** Starts the brain (memory included) with SIWE on; `env` overrides. */
export async function startMemoryPlatform(env: Record<string, string> = {}): Promise<MemoryTestPlatform> {
  const adminWallet = Wallet.createRandom();
  const platform = await startBrainPlatform({
    SIWE_ENABLED: '1',
    ADMIN_ADDRESSES: adminWallet.address,
    ...env,
  });
  const as = (token: string) => ({
    get: (path: string) => request(platform.url).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object = {}) =>
      request(platform.url).post(path).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => request(platform.url).delete(path).set('Authorization', `Bearer ${token}`),
  });
  const signUp = async (wallet = Wallet.createRandom()): Promise<MemoryUser> => {
    const { body } = await signInWithWallet(platform.url, wallet);
    const me = await as(body.token).get('/auth/me').expect(200);
    return { token: body.token, userId: me.body.id, subject: `user:${me.body.id}` };
  };
  let admin: MemoryUser | undefined;
  return {
    ...platform,
    as,
    signUp: () => signUp(),
    operator: async () => {
      admin ??= await signUp(adminWallet);
      const user = await signUp();
      await request(platform.url)
        .put(`/auth/users/${user.userId}/roles`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send({ roles: ['operator'] })
        .expect(200);
      return user;
    },
  };
}
