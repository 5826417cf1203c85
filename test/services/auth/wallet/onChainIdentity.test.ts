import { Wallet, namehash, type BaseWallet, type Contract } from 'ethers';
import request from 'supertest';
import { ManualClock } from '../../../../platform/clock';
import { productParts } from '../../../../productParts';
import { startTestChain, type TestChain } from '../../../helpers/evm';
import { freePort } from '../../../helpers/nginx';
import { deployFixture } from '../../../helpers/solidityFixtures';
import { buildSiweMessage, signInWithWallet } from '../../../helpers/siwe';
import { codeIn, SmtpInbox } from '../../../helpers/smtpInbox';
import { startTestPlatform, type TestPlatform } from '../../../helpers/platform';

/** A SIWE proof claiming `address`, signed by `signer` (the address's owner key for a contract wallet). */
async function proofFor(server: TestPlatform, address: string, signer: BaseWallet) {
  const { body } = await request(server.url).post('/auth/wallet/nonce').expect(201);
  const message = buildSiweMessage(signer, body.nonce, { address, chainId: 84532 });
  return { address, nonce: body.nonce, message, signature: await signer.signMessage(message) };
}

/** SIWE for smart-contract wallets (EIP-1271) and ENS names, against contracts in an in-process EVM. */
describe('on-chain identity', () => {
  const clock = new ManualClock(Date.now());
  const inbox = new SmtpInbox();
  let chain: TestChain;
  let server: TestPlatform;
  let wallet: Contract;
  let resolver: Contract;
  const owner = Wallet.createRandom();
  const named = Wallet.createRandom();

  /** Gives `account` the primary name `name` (reverse record and the forward record back to it). */
  async function setPrimaryName(account: BaseWallet, name: string) {
    const reverse = namehash(`${account.address.slice(2).toLowerCase()}.addr.reverse`);
    for (const tx of [
      await resolver.getFunction('setName')(reverse, name),
      await resolver.getFunction('setAddr')(namehash(name || 'unnamed.eth'), account.address),
    ])
      await tx.wait();
  }

  beforeAll(async () => {
    chain = await startTestChain({ chainId: 84532 });
    const deployer = chain.wallets[0] as Wallet;
    wallet = await deployFixture('ContractWallet.sol', 'ContractWallet', deployer, owner.address);
    const registry = await deployFixture('MiniEns.sol', 'MiniEnsRegistry', deployer);
    resolver = await deployFixture('MiniEns.sol', 'MiniEnsResolver', deployer);
    // Every node resolves through the one resolver: register the nodes the tests name.
    for (const account of [named, owner]) {
      const reverse = namehash(`${account.address.slice(2).toLowerCase()}.addr.reverse`);
      await (await registry.getFunction('setResolver')(reverse, await resolver.getAddress())).wait();
    }
    for (const name of ['alice.forge.eth', 'olivia.forge.eth']) {
      await (await registry.getFunction('setResolver')(namehash(name), await resolver.getAddress())).wait();
    }
    await setPrimaryName(named, 'alice.forge.eth');
    server = await startTestPlatform(
      {
        SIWE_ENABLED: '1',
        ETH_RPC_URL: chain.url,
        ETH_CHAIN_ID: '84532',
        ENS_REGISTRY_ADDRESS: await registry.getAddress(),
        SMTP_URL: await inbox.start(),
      },
      productParts,
      clock,
    );
  });
  afterAll(async () => {
    await server.stop();
    await chain.close();
    await inbox.stop();
  });

  const me = async (token: string) =>
    (await request(server.url).get('/auth/me').set('Authorization', `Bearer ${token}`)).body;
  const forward = (token: string) =>
    request(server.url).get('/auth/forward').set('Authorization', `Bearer ${token}`);

  it("signs a smart-contract wallet in with its owner's signature (EIP-1271)", async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send(await proofFor(server, await wallet.getAddress(), owner));
    expect(res.status).toBe(202);
    expect(res.body.address).toBe(await wallet.getAddress());
  });

  it('refuses a contract-wallet signature the contract does not accept', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send(await proofFor(server, await wallet.getAddress(), Wallet.createRandom()));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('refuses a signature for an account without code (no contract to ask)', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send(await proofFor(server, Wallet.createRandom().address, Wallet.createRandom()));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('records the ENS name of a wallet and forwards it', async () => {
    const { body } = await signInWithWallet(server.url, named);
    expect((await me(body.token)).identities).toMatchObject([
      { kind: 'wallet', ens_name: 'alice.forge.eth' },
    ]);
    expect((await forward(body.token)).headers['x-wallet-ens']).toBe('alice.forge.eth');
  });

  it('forwards an empty ENS header for a wallet without a name', async () => {
    const { body } = await signInWithWallet(server.url, Wallet.createRandom());
    const res = await forward(body.token);
    expect(res.status).toBe(200);
    expect(res.headers['x-wallet-ens']).toBe('');
  });

  it('raises a named wallet with a verified email to Sovereign, caches the name 10 minutes, and drops the tier once the name is gone', async () => {
    await setPrimaryName(owner, 'olivia.forge.eth');
    const token = (await signInWithWallet(server.url, owner)).body.token as string;
    const email = `olivia-${Date.now()}@example.com`;
    await request(server.url)
      .post('/auth/email/register')
      .set('Authorization', `Bearer ${token}`)
      .send({ email, password: 'correct horse battery staple' })
      .expect(202);
    await request(server.url)
      .post('/auth/email/verify')
      .send({ code: codeIn(await inbox.next(email)) })
      .expect(200);
    expect(await me(token)).toMatchObject({ tier: 4, tier_name: 'Sovereign' });
    expect((await forward(token)).headers['x-user-tier']).toBe('4 Sovereign');

    // The name is removed on-chain: the cached answer stands for 10 minutes, sign-ins included.
    await setPrimaryName(owner, '');
    clock.advance(599_000);
    expect((await forward(token)).headers['x-wallet-ens']).toBe('olivia.forge.eth');
    const cached = (await signInWithWallet(server.url, owner)).body.token as string;
    expect((await me(cached)).tier).toBe(4);

    clock.advance(2_000); // past the 10 minutes
    expect((await forward(token)).headers['x-wallet-ens']).toBe('');
    const fresh = (await signInWithWallet(server.url, owner)).body.token as string;
    const profile = await me(fresh);
    expect(profile).toMatchObject({ tier: 3, tier_name: 'Trusted' });
    expect(profile.identities.find((i: { kind: string }) => i.kind === 'wallet').ens_name).toBeUndefined();
  });
});

describe('on-chain identity with the RPC unreachable', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform(
      { SIWE_ENABLED: '1', ETH_RPC_URL: `http://127.0.0.1:${await freePort()}`, ETH_CHAIN_ID: '84532' },
      productParts,
    );
  });
  afterAll(() => server.stop());

  it('answers a contract-wallet proof with 503 ETH_RPC_UNAVAILABLE, not 401', async () => {
    const proof = await proofFor(server, Wallet.createRandom().address, Wallet.createRandom());
    const res = await request(server.url).post('/auth/wallet/verify').send(proof);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('ETH_RPC_UNAVAILABLE');
  });

  it('still signs an EOA in, logging the failed ENS lookup', async () => {
    const wallet = Wallet.createRandom();
    const res = await signInWithWallet(server.url, wallet);
    expect(res.status).toBe(202);
    expect(server.logs.withMessage('ENS lookup failed')).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: wallet.address })]),
    );
  });
});
