import { inspect } from 'node:util';
import { Wallet, verifyMessage } from 'ethers';
import { ManualClock } from '../../../../platform/clock';
import { AppError } from '../../../../platform/errors';
import {
  envSecretSource,
  SecretKeyProvider,
  WalletChainSigner,
  type SecretSource,
} from '../../../../services/signer/keys/signerKeys';
import { buildForgeDomain, FORGE_CLAIM_TYPES } from '../../../../contracts/typedData';
import { testKey } from '../../../helpers/evm';
import { captureLogs } from '../../../helpers/logCapture';

const MAINNET_KEY = testKey('secret provider 8453');
const TESTNET_KEY = testKey('secret provider 84532');

function buildSecretProvider(env: Record<string, string | undefined> = {}, refreshMs?: number) {
  const clock = new ManualClock();
  const logs = captureLogs();
  const source = envSecretSource({
    SIGNER_PRIVATE_KEY_8453: MAINNET_KEY,
    SIGNER_PRIVATE_KEY_84532: TESTNET_KEY.slice(2),
    ...env,
  });
  const provider = new SecretKeyProvider({ source, clock, refreshMs, logger: logs.logger });
  return { clock, logs, provider };
}

async function failure(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  const error = (await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (caught: unknown) => caught,
  )) as AppError;
  return { status: error.status, code: error.code, message: error.message };
}

describe('WalletChainSigner', () => {
  it('signs typed data exactly as ethers Wallet.signTypedData, per domain', async () => {
    const wallet = new Wallet(MAINNET_KEY);
    const signer = new WalletChainSigner(wallet);
    const message = { forgeId: `0x${'12'.repeat(32)}`, forger: wallet.address, nonce: 3n };
    const domains = [
      buildForgeDomain(8453, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
      buildForgeDomain(84532, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
      buildForgeDomain(8453, '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359'),
    ];
    for (const domain of [...domains, ...domains]) {
      expect(await signer.signTypedData(domain, FORGE_CLAIM_TYPES, message)).toBe(
        await wallet.signTypedData(domain, FORGE_CLAIM_TYPES, message),
      );
    }
  });
});

describe('SecretKeyProvider', () => {
  it('serves a separate key per chain id, with or without the 0x prefix', async () => {
    const { provider } = buildSecretProvider();
    expect((await provider.getSigner(8453)).address).toBe(new Wallet(MAINNET_KEY).address);
    expect((await provider.getSigner(84532)).address).toBe(new Wallet(TESTNET_KEY).address);
  });

  it('signs without exposing the key through JSON, inspection or logs', async () => {
    const { provider, logs } = buildSecretProvider();
    const signer = await provider.getSigner(8453);
    const signature = await signer.signMessage('hello');
    expect(verifyMessage('hello', signature)).toBe(signer.address);
    expect(JSON.stringify(signer)).toBe(JSON.stringify({ address: signer.address }));
    const exposed = [JSON.stringify(signer), inspect(signer, { depth: 5, showHidden: true }), logs.text()];
    for (const text of exposed) expect(text).not.toContain(MAINNET_KEY.slice(2));
    expect(logs.lines.map((line) => [line.msg, line.chainId, line.address])).toEqual([
      ['signer key loaded', 8453, signer.address],
    ]);
  });

  it('picks up a rotated secret after refreshMs (default 60 s) or at once on rotate()', async () => {
    const env: Record<string, string> = { SIGNER_PRIVATE_KEY_8453: MAINNET_KEY };
    const clock = new ManualClock();
    const provider = new SecretKeyProvider({ source: envSecretSource(env), clock });
    const before = (await provider.getSigner(8453)).address;
    const rotatedKey = testKey('secret provider 8453 rotated');
    env.SIGNER_PRIVATE_KEY_8453 = rotatedKey;
    clock.advance(59_999);
    expect((await provider.getSigner(8453)).address).toBe(before);
    clock.advance(1);
    expect((await provider.getSigner(8453)).address).toBe(new Wallet(rotatedKey).address);

    env.SIGNER_PRIVATE_KEY_8453 = MAINNET_KEY;
    await provider.rotate(8453);
    expect((await provider.getSigner(8453)).address).toBe(before);
  });

  it('keeps the loaded key when a refresh fails, and warns without the secret', async () => {
    const responses: (string | Error)[] = [MAINNET_KEY, new Error(`vault timeout near ${MAINNET_KEY}`)];
    const source: SecretSource = {
      getSecret: async () => {
        const next = responses.shift();
        if (next instanceof Error) throw next;
        return next;
      },
    };
    const clock = new ManualClock();
    const logs = captureLogs();
    const provider = new SecretKeyProvider({ source, clock, logger: logs.logger, refreshMs: 10 });
    const first = await provider.getSigner(8453);
    clock.advance(10);
    expect(await provider.getSigner(8453)).toBe(first);
    expect(logs.lines.map((line) => [line.level, line.msg, line.code])).toEqual([
      [30, 'signer key loaded', undefined],
      [40, 'signer key refresh failed', 'SIGNER_KEY_UNAVAILABLE'],
    ]);
    expect(logs.text()).not.toContain(MAINNET_KEY.slice(2));
  });

  it('reports a missing or malformed secret as SIGNER_KEY_UNAVAILABLE (503) without echoing it', async () => {
    const { provider } = buildSecretProvider({ SIGNER_PRIVATE_KEY_84532: 'not-a-key' });
    expect(await failure(provider.getSigner(1))).toEqual({
      status: 503,
      code: 'SIGNER_KEY_UNAVAILABLE',
      message: 'No signing key for chain 1: secret signer-private-key-1 is not set',
    });
    expect(await failure(provider.getSigner(84532))).toEqual({
      status: 503,
      code: 'SIGNER_KEY_UNAVAILABLE',
      message:
        'No signing key for chain 84532: secret signer-private-key-84532 is not a 32-byte hex private key',
    });
  });
});
