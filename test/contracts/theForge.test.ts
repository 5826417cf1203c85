import { keccak256, Wallet, type Contract } from 'ethers';
import {
  buildForgeDomain,
  computeForgeId,
  FORGE_CLAIM_TYPES,
  FORGE_START_TYPES,
  ForgePath,
} from '../../contracts/typedData';
import { eventsOf, revertOf, send } from '../helpers/contractCalls';
import { deployContracts, startTestChain, testKey, type Deployment, type TestChain } from '../helpers/evm';

const CHAIN_ID = 84532;
const signer = new Wallet(testKey('forge contract signer'));

let chain: TestChain;
let deployment: Deployment;
let forge: Contract;

beforeAll(async () => {
  chain = await startTestChain({ chainId: CHAIN_ID, accounts: 5 });
  deployment = await deployContracts(chain, signer.address);
  forge = deployment.forge;
});

afterAll(async () => {
  await chain.close();
});

interface StartVoucher {
  forgeId: string;
  signature: string;
  timestamp: number;
}

/** Signs a ForgeStart the way the backend does, for `forger` at `timestamp` with its current nonce. */
async function buildStartVoucher(
  forger: Wallet,
  overrides: { path?: ForgePath; zen?: bigint; timestamp: number; key?: Wallet; chainId?: number },
): Promise<StartVoucher> {
  const nonce = BigInt(await forge.getNonce(forger.address));
  const path = overrides.path ?? ForgePath.Labor;
  const forgeId = computeForgeId({ forger: forger.address, path, timestamp: overrides.timestamp, nonce });
  const domain = buildForgeDomain(overrides.chainId ?? CHAIN_ID, deployment.forgeAddress);
  const message = { forger: forger.address, path, zenCommitted: overrides.zen ?? 100n, forgeId, nonce };
  const signature = await (overrides.key ?? signer).signTypedData(domain, FORGE_START_TYPES, message);
  return { forgeId, signature, timestamp: overrides.timestamp };
}

async function signClaim(forger: Wallet, forgeId: string, key: Wallet = signer): Promise<string> {
  const nonce = BigInt(await forge.getNonce(forger.address));
  const domain = buildForgeDomain(CHAIN_ID, deployment.forgeAddress);
  return key.signTypedData(domain, FORGE_CLAIM_TYPES, { forgeId, forger: forger.address, nonce });
}

describe('TheForge start window', () => {
  it('accepts a start mined exactly at the signed timestamp and stores the forge under the spec forgeId', async () => {
    const forger = chain.wallets[1];
    const timestamp = (await chain.latestTimestamp()) + 20;
    const voucher = await buildStartVoucher(forger, { path: ForgePath.Trade, zen: 250n, timestamp });
    await chain.setNextBlockTimestamp(timestamp);
    const receipt = await send(forge, forger, 'startForge', ForgePath.Trade, 250n, voucher.signature);

    expect(eventsOf(receipt, forge)).toEqual([
      { name: 'SignatureConsumed', args: [forger.address, 0n, keccak256(voucher.signature)] },
      { name: 'ForgeStarted', args: [voucher.forgeId, forger.address, BigInt(ForgePath.Trade), 250n, 0n] },
    ]);
    const stored = await forge.getForge(voucher.forgeId);
    expect([stored.forger, stored.path, stored.claimed, stored.startedAt, stored.zenCommitted]).toEqual([
      forger.address,
      BigInt(ForgePath.Trade),
      false,
      BigInt(timestamp),
      250n,
    ]);
    expect(await forge.computeForgeId(forger.address, ForgePath.Trade, timestamp, 0n)).toBe(voucher.forgeId);
  });

  it('accepts a start mined up to 30 s before the signed timestamp, keeping the signed forgeId', async () => {
    const forger = chain.wallets[2];
    const now = await chain.latestTimestamp();
    const voucher = await buildStartVoucher(forger, { timestamp: now + 31 });
    await chain.setNextBlockTimestamp(now + 1);
    await send(forge, forger, 'startForge', ForgePath.Labor, 100n, voucher.signature);

    expect((await forge.getForge(voucher.forgeId)).forger).toBe(forger.address);
    expect(await forge.getNonce(forger.address)).toBe(1n);
  });

  it('rejects a start mined after the signed timestamp (expired) with InvalidSignature', async () => {
    const forger = chain.wallets[3];
    const timestamp = (await chain.latestTimestamp()) + 10;
    const voucher = await buildStartVoucher(forger, { timestamp });
    await chain.setNextBlockTimestamp(timestamp + 1);

    const revert = await revertOf(
      send(forge, forger, 'startForge', ForgePath.Labor, 100n, voucher.signature),
      forge,
    );
    expect(revert).toEqual({ name: 'InvalidSignature', args: [] });
    expect(await forge.getNonce(forger.address)).toBe(0n);
  });

  it('rejects a start signed for more than 30 s ahead with InvalidSignature', async () => {
    const forger = chain.wallets[3];
    const now = await chain.latestTimestamp();
    const voucher = await buildStartVoucher(forger, { timestamp: now + 32 });
    await chain.setNextBlockTimestamp(now + 1);

    const revert = await revertOf(
      send(forge, forger, 'startForge', ForgePath.Labor, 100n, voucher.signature),
      forge,
    );
    expect(revert).toEqual({ name: 'InvalidSignature', args: [] });
  });
});

describe('TheForge signature checks', () => {
  it('rejects a signature bound to another chain id, another key, or other terms with InvalidSignature', async () => {
    const forger = chain.wallets[4];
    const timestamp = (await chain.latestTimestamp()) + 20;
    const wrongChain = await buildStartVoucher(forger, { timestamp, chainId: 8453 });
    const wrongKey = await buildStartVoucher(forger, {
      timestamp,
      key: new Wallet(testKey('unauthorised key')),
    });
    const valid = await buildStartVoucher(forger, { timestamp, zen: 100n });

    for (const [zen, signature] of [
      [100n, wrongChain.signature],
      [100n, wrongKey.signature],
      [101n, valid.signature],
    ] as const) {
      const revert = await revertOf(
        send(forge, forger, 'startForge', ForgePath.Labor, zen, signature),
        forge,
      );
      expect(revert).toEqual({ name: 'InvalidSignature', args: [] });
    }
    const otherPath = await revertOf(
      send(forge, forger, 'startForge', ForgePath.Chaos, 100n, valid.signature),
      forge,
    );
    expect(otherPath).toEqual({ name: 'InvalidSignature', args: [] });
  });

  it('rejects zero zenCommitted with ZeroZenCommitted', async () => {
    const forger = chain.wallets[4];
    const voucher = await buildStartVoucher(forger, {
      timestamp: (await chain.latestTimestamp()) + 20,
      zen: 0n,
    });
    const revert = await revertOf(
      send(forge, forger, 'startForge', ForgePath.Labor, 0n, voucher.signature),
      forge,
    );
    expect(revert).toEqual({ name: 'ZeroZenCommitted', args: [] });
  });
});

describe('TheForge claim', () => {
  it('claims a started forge once; replays revert with SignatureAlreadyUsed', async () => {
    const forger = chain.wallets[1];
    const timestamp = (await chain.latestTimestamp()) + 15;
    const voucher = await buildStartVoucher(forger, { path: ForgePath.Craft, timestamp });
    await chain.setNextBlockTimestamp(timestamp);
    await send(forge, forger, 'startForge', ForgePath.Craft, 100n, voucher.signature);
    const nonce = BigInt(await forge.getNonce(forger.address));
    const completion = await signClaim(forger, voucher.forgeId);

    const receipt = await send(forge, forger, 'claimForge', voucher.forgeId, completion);
    expect(eventsOf(receipt, forge)).toEqual([
      { name: 'SignatureConsumed', args: [forger.address, nonce, keccak256(completion)] },
      { name: 'ForgeClaimed', args: [voucher.forgeId, forger.address, nonce] },
    ]);
    expect((await forge.getForge(voucher.forgeId)).claimed).toBe(true);
    expect(await forge.getNonce(forger.address)).toBe(nonce + 1n);

    const replayClaim = await revertOf(send(forge, forger, 'claimForge', voucher.forgeId, completion), forge);
    expect(replayClaim).toEqual({ name: 'SignatureAlreadyUsed', args: [keccak256(completion)] });
    const replayStart = await revertOf(
      send(forge, forger, 'startForge', ForgePath.Craft, 100n, voucher.signature),
      forge,
    );
    expect(replayStart).toEqual({ name: 'SignatureAlreadyUsed', args: [keccak256(voucher.signature)] });
  });

  it('refuses unknown, foreign and already claimed forges with their custom errors', async () => {
    const [, owner, stranger] = chain.wallets;
    const unknownId = keccak256('0x01');
    const unknown = await revertOf(
      send(forge, owner, 'claimForge', unknownId, await signClaim(owner, unknownId)),
      forge,
    );
    expect(unknown).toEqual({ name: 'ForgeNotFound', args: [unknownId] });

    const timestamp = (await chain.latestTimestamp()) + 12;
    const voucher = await buildStartVoucher(owner, { timestamp });
    await chain.setNextBlockTimestamp(timestamp);
    await send(forge, owner, 'startForge', ForgePath.Labor, 100n, voucher.signature);
    const foreign = await revertOf(
      send(forge, stranger, 'claimForge', voucher.forgeId, await signClaim(stranger, voucher.forgeId)),
      forge,
    );
    expect(foreign).toEqual({ name: 'NotForger', args: [voucher.forgeId, stranger.address] });

    const wrongKey = await revertOf(
      send(
        forge,
        owner,
        'claimForge',
        voucher.forgeId,
        await signClaim(owner, voucher.forgeId, new Wallet(testKey('unauthorised key'))),
      ),
      forge,
    );
    expect(wrongKey).toEqual({ name: 'InvalidSignature', args: [] });

    await send(forge, owner, 'claimForge', voucher.forgeId, await signClaim(owner, voucher.forgeId));
    const again = await revertOf(
      send(forge, owner, 'claimForge', voucher.forgeId, await signClaim(owner, voucher.forgeId)),
      forge,
    );
    expect(again).toEqual({ name: 'ForgeAlreadyClaimed', args: [voucher.forgeId] });
  });
});

describe('TheForge signer rotation', () => {
  it('lets only the owner rotate the signer, after which the old key is refused', async () => {
    const [owner, forger, stranger] = chain.wallets;
    const next = new Wallet(testKey('forge contract signer rotated'));
    const notOwner = await revertOf(send(forge, stranger, 'setSigner', next.address), forge);
    expect(notOwner).toEqual({ name: 'OwnableUnauthorizedAccount', args: [stranger.address] });

    const receipt = await send(forge, owner, 'setSigner', next.address);
    expect(eventsOf(receipt, forge)).toEqual([
      { name: 'SignerUpdated', args: [signer.address, next.address] },
    ]);
    const timestamp = (await chain.latestTimestamp()) + 20;
    const oldKey = await buildStartVoucher(forger, { timestamp });
    expect(await revertOf(send(forge, forger, 'startForge', 0, 100n, oldKey.signature), forge)).toEqual({
      name: 'InvalidSignature',
      args: [],
    });
    const newKey = await buildStartVoucher(forger, { timestamp, key: next });
    await chain.setNextBlockTimestamp(timestamp);
    await send(forge, forger, 'startForge', 0, 100n, newKey.signature);
    expect((await forge.getForge(newKey.forgeId)).forger).toBe(forger.address);
    await send(forge, owner, 'setSigner', signer.address);
  });
});
