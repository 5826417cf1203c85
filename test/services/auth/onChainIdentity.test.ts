import { Wallet, namehash, type BaseWallet, type Contract } from 'ethers';
import request from 'supertest';
import { productParts } from '../../../productParts';
import { startTestChain, type TestChain } from '../../helpers/evm';
import { deployFixture } from '../../helpers/solidityFixtures';
import { buildSiweMessage, signInWithWallet } from '../../helpers/siwe';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** SIWE for smart-contract wallets (EIP-1271) and ENS names, against contracts in an in-process EVM. */
describe('on-chain identity', () => {
  let chain: TestChain;
  let server: TestPlatform;
  let wallet: Contract;
  const owner = Wallet.createRandom();
  const named = Wallet.createRandom();

  beforeAll(async () => {
    chain = await startTestChain({ chainId: 84532 });
    const deployer = chain.wallets[0] as Wallet;
    wallet = await deployFixture('ContractWallet.sol', 'ContractWallet', deployer, owner.address);
    const registry = await deployFixture('MiniEns.sol', 'MiniEnsRegistry', deployer);
    const resolver = await deployFixture('MiniEns.sol', 'MiniEnsResolver', deployer);
    const reverse = namehash(`${named.address.slice(2).toLowerCase()}.addr.reverse`);
    const forward = namehash('alice.forge.eth');
    for (const tx of [
      await registry.getFunction('setResolver')(reverse, await resolver.getAddress()),
      await registry.getFunction('setResolver')(forward, await resolver.getAddress()),
      await resolver.getFunction('setName')(reverse, 'alice.forge.eth'),
      await resolver.getFunction('setAddr')(forward, named.address),
    ])
      await tx.wait();
    server = await startTestPlatform(
      {
        SIWE_ENABLED: '1',
        ETH_RPC_URL: chain.url,
        ETH_CHAIN_ID: '84532',
        ENS_REGISTRY_ADDRESS: await registry.getAddress(),
      },
      productParts,
    );
  });
  afterAll(async () => {
    await server.stop();
    await chain.close();
  });

  async function contractWalletProof(signer: BaseWallet) {
    const address = await wallet.getAddress();
    const { body } = await request(server.url).post('/auth/wallet/nonce').expect(201);
    const message = buildSiweMessage(signer, body.nonce, { address, chainId: 84532 });
    return { address, nonce: body.nonce, message, signature: await signer.signMessage(message) };
  }

  it("signs a smart-contract wallet in with its owner's signature (EIP-1271)", async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send(await contractWalletProof(owner));
    expect(res.status).toBe(202);
    expect(res.body.address).toBe(await wallet.getAddress());
  });

  it('refuses a contract-wallet signature the contract does not accept', async () => {
    const res = await request(server.url)
      .post('/auth/wallet/verify')
      .send(await contractWalletProof(Wallet.createRandom()));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('SIWE_SIGNATURE_INVALID');
  });

  it('records the ENS name of a wallet and forwards it', async () => {
    const { body } = await signInWithWallet(server.url, named);
    const me = await request(server.url).get('/auth/me').set('Authorization', `Bearer ${body.token}`);
    expect(me.body.identities).toMatchObject([{ kind: 'wallet', ens_name: 'alice.forge.eth' }]);
    const forward = await request(server.url)
      .get('/auth/forward')
      .set('Authorization', `Bearer ${body.token}`);
    expect(forward.headers['x-wallet-ens']).toBe('alice.forge.eth');
  });

  it('forwards an empty ENS header for a wallet without a name', async () => {
    const { body } = await signInWithWallet(server.url, Wallet.createRandom());
    const forward = await request(server.url)
      .get('/auth/forward')
      .set('Authorization', `Bearer ${body.token}`);
    expect(forward.status).toBe(200);
    expect(forward.headers['x-wallet-ens']).toBe('');
  });
});
