import { Types } from 'mongoose';
import { identityModel } from '../../../models/Identity';
import { userModel } from '../../../models/User';
import { ManualClock } from '../../../platform/clock';
import { Accounts } from '../../../services/auth/accounts';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** Accounts on the platform's MongoDB (the embedded engine), driven directly. */
describe('accounts', () => {
  let server: TestPlatform;
  let accounts: Accounts;
  let counter = 0;
  const newWallet = () => `0x${(++counter).toString(16).padStart(8, '0')}${'a'.repeat(32)}`;

  beforeAll(async () => {
    server = await startTestPlatform({ ROLES: 'api' });
    accounts = new Accounts(server.platform.stores.mongo!, new ManualClock(), {
      wallets: new Set(['0xadadadadadadadadadadadadadadadadadadadad']),
      emails: new Set(),
    });
  });
  afterAll(() => server.stop());

  it('gives concurrent first sign-ins of one identity one user, leaving no stray users', async () => {
    const wallet = newWallet();
    const usersBefore = await userModel(server.platform.stores.mongo!).countDocuments();
    const ids = await Promise.all(
      Array.from({ length: 8 }, () => accounts.proveIdentity('wallet', wallet, {})),
    );
    expect(new Set(ids.map((id) => id.toHexString())).size).toBe(1);
    expect(await identityModel(server.platform.stores.mongo!).countDocuments({ subject: wallet })).toBe(1);
    expect(await userModel(server.platform.stores.mongo!).countDocuments()).toBe(usersBefore + 1);
  });

  it('returns the whole user from signIn, with the tier the identity earns', async () => {
    const user = await accounts.signIn('wallet', newWallet(), { ensName: 'a.eth' });
    expect(user).toMatchObject({ roles: ['player'], tier: 2 });
  });

  it('grants bootstrap admins the admin role on every sign-in', async () => {
    const admin = '0xadadadadadadadadadadadadadadadadadadadad';
    const first = await accounts.signIn('wallet', admin, {});
    expect(first.roles).toEqual(['player', 'admin']);
    await accounts.setRoles(first._id, []);
    expect((await accounts.signIn('wallet', admin, {})).roles).toEqual(['player', 'admin']);
  });

  it('links a new identity to the given user and refuses one owned by another (409)', async () => {
    const owner = await accounts.proveIdentity('wallet', newWallet(), {});
    const email = `linked-${Date.now()}@example.com`;
    expect((await accounts.proveIdentity('email', email, {}, owner)).equals(owner)).toBe(true);
    expect((await accounts.findUser(owner))?.tier).toBe(3);
    await expect(accounts.proveIdentity('email', email, {}, new Types.ObjectId())).rejects.toMatchObject({
      status: 409,
      code: 'IDENTITY_LINKED_ELSEWHERE',
    });
  });
});
