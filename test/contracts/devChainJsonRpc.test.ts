import request from 'supertest';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import punkSeedAbi from '../../contracts/abi/PunkSeed.json';
import { deployContracts, startTestChain, type Deployment, type TestChain } from '../helpers/evm';
import { signerAddress } from '../helpers/signerFixtures';
import { SIGNER_SERVICE_TOKEN, startSignerPlatform, type SignerPlatform } from '../helpers/signerPlatform';

/** The dev chain as front ends use it: JSON-RPC 2.0 forms, and viem sending a platform-signed mint. */
describe('dev chain JSON-RPC', () => {
  let chain: TestChain;
  let deployment: Deployment;
  let signer: SignerPlatform;

  beforeAll(async () => {
    chain = await startTestChain();
    deployment = await deployContracts(chain, signerAddress(84532));
    signer = await startSignerPlatform(chain, deployment);
  });
  afterAll(async () => {
    await signer.stop();
    await chain.close();
  });

  const rpc = (body: unknown) =>
    request(chain.url)
      .post('/')
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  it('accepts a request without params', async () => {
    const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'eth_chainId' });
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 7, result: '0x14a34' });
  });

  it('answers a batch in order, leaving notifications out', async () => {
    const res = await rpc([
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', method: 'eth_blockNumber' },
      { jsonrpc: '2.0', id: 'b', method: 'net_version', params: [] },
    ]);
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x14a34' },
      { jsonrpc: '2.0', id: 'b', result: '84532' },
    ]);
    expect((await rpc({ jsonrpc: '2.0', method: 'eth_chainId' })).status).toBe(204);
  });

  it('answers malformed envelopes with JSON-RPC errors', async () => {
    expect((await rpc('{not json')).body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
    });
    expect((await rpc([])).body.error).toEqual({ code: -32600, message: 'Invalid request: empty batch' });
    expect((await rpc([{ id: 1 }, 5])).body).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request: method must be a string' } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: expected an object' } },
    ]);
  });

  it('answers CORS preflights so browser front ends can call it', async () => {
    const res = await request(chain.url)
      .options('/')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('takes a platform-signed mintWithSignature from viem, and reverts its replay', async () => {
    const account = privateKeyToAccount(chain.wallets[1].privateKey as Hex);
    const mint = await request(signer.server.url)
      .post('/api/punk-seed/mint')
      .set('Authorization', `Bearer ${SIGNER_SERVICE_TOKEN}`)
      .send({ address: account.address });
    expect(mint.status).toBe(200);

    const devChain = defineChain({
      id: chain.chainId,
      name: 'Forge dev chain',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.url] } },
    });
    const transport = http(chain.url);
    const wallet = createWalletClient({ account, chain: devChain, transport });
    const reader = createPublicClient({ chain: devChain, transport });
    const contract = { address: deployment.seedAddress as Hex, abi: punkSeedAbi } as const;

    const hash = await wallet.writeContract({
      ...contract,
      functionName: 'mintWithSignature',
      args: [mint.body.signature as Hex],
    });
    expect((await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
    expect(
      await reader.readContract({ ...contract, functionName: 'balanceOf', args: [account.address] }),
    ).toBe(1n);

    const replay = await wallet
      .writeContract({ ...contract, functionName: 'mintWithSignature', args: [mint.body.signature as Hex] })
      .catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(BaseError);
    const reverted = (replay as BaseError).walk((cause) => cause instanceof ContractFunctionRevertedError);
    expect((reverted as ContractFunctionRevertedError).data?.errorName).toBe('SignatureAlreadyUsed');
  });
});
