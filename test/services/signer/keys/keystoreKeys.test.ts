import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { encryptKeystoreJson, Wallet } from 'ethers';
import { ManualClock } from '../../../../platform/clock';
import type { AppError } from '../../../../platform/errors';
import { KeystoreFileKeyProvider } from '../../../../services/signer/keys/keystoreKeys';
import { testKey } from '../../../helpers/evm';
import { captureLogs } from '../../../helpers/logCapture';

const PASSWORDS: Record<number, string> = { 8453: 'mainnet passphrase', 84532: 'testnet passphrase' };

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'signer-keystore-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** Writes an encrypted keystore (light scrypt so tests stay fast) by write-then-rename, as an operator would. */
async function writeKeystore(file: string, key: string, password: string): Promise<void> {
  const wallet = new Wallet(key);
  const json = await encryptKeystoreJson({ address: wallet.address, privateKey: key }, password, {
    scrypt: { N: 1 << 10 },
  });
  await fs.writeFile(`${file}.tmp`, json);
  await fs.rename(`${file}.tmp`, file);
}

async function buildKeystoreProvider() {
  const files = { 8453: path.join(dir, 'signer-8453.json'), 84532: path.join(dir, 'signer-84532.json') };
  await writeKeystore(files[8453], testKey('keystore 8453'), PASSWORDS[8453]);
  await writeKeystore(files[84532], testKey('keystore 84532'), PASSWORDS[84532]);
  const clock = new ManualClock();
  const logs = captureLogs();
  const provider = new KeystoreFileKeyProvider({
    files,
    password: (chainId) => PASSWORDS[chainId],
    clock,
    logger: logs.logger,
  });
  return { files, clock, logs, provider };
}

describe('KeystoreFileKeyProvider', () => {
  it('decrypts a separate keystore per chain id', async () => {
    const { provider } = await buildKeystoreProvider();
    expect((await provider.getSigner(8453)).address).toBe(new Wallet(testKey('keystore 8453')).address);
    expect((await provider.getSigner(84532)).address).toBe(new Wallet(testKey('keystore 84532')).address);
  });

  it('round-trips: what the keystore key signs verifies to its address', async () => {
    const { provider } = await buildKeystoreProvider();
    const signer = await provider.getSigner(84532);
    const domain = { name: 'TheForge', version: '2', chainId: 84532 };
    const types = { Ping: [{ name: 'value', type: 'uint256' }] };
    const signature = await signer.signTypedData(domain, types, { value: 7n });
    expect(await new Wallet(testKey('keystore 84532')).signTypedData(domain, types, { value: 7n })).toBe(
      signature,
    );
  });

  it('notices a replaced keystore within recheckMs (default 1 s) and switches keys without restart', async () => {
    const { files, clock, logs, provider } = await buildKeystoreProvider();
    const before = (await provider.getSigner(8453)).address;
    await writeKeystore(files[8453], testKey('keystore 8453 rotated'), PASSWORDS[8453]);
    clock.advance(999);
    expect((await provider.getSigner(8453)).address).toBe(before);
    clock.advance(1);
    const after = (await provider.getSigner(8453)).address;
    expect(after).toBe(new Wallet(testKey('keystore 8453 rotated')).address);
    expect(logs.lines.map((line) => [line.msg, line.address, line.rotated])).toEqual([
      ['signer key loaded', before, false],
      ['signer key loaded', after, true],
    ]);
    const secrets = [
      testKey('keystore 8453').slice(2),
      testKey('keystore 8453 rotated').slice(2),
      PASSWORDS[8453],
    ];
    for (const secret of secrets) expect(logs.text()).not.toContain(secret);
  });

  it('re-reads at once on rotate()', async () => {
    const { files, provider } = await buildKeystoreProvider();
    await provider.getSigner(84532);
    await writeKeystore(files[84532], testKey('keystore 84532 rotated'), PASSWORDS[84532]);
    await provider.rotate(84532);
    expect((await provider.getSigner(84532)).address).toBe(
      new Wallet(testKey('keystore 84532 rotated')).address,
    );
  });

  it('keeps the current key and warns when a replacement cannot be decrypted', async () => {
    const { files, clock, logs, provider } = await buildKeystoreProvider();
    const before = await provider.getSigner(8453);
    await writeKeystore(files[8453], testKey('keystore 8453 rotated'), 'wrong passphrase');
    clock.advance(1000);
    expect(await provider.getSigner(8453)).toBe(before);
    expect(logs.lines.at(-1)).toMatchObject({ level: 40, msg: 'signer key refresh failed', chainId: 8453 });
  });

  it('fails with SIGNER_KEY_UNAVAILABLE for a wrong password or an unconfigured chain', async () => {
    const { files } = await buildKeystoreProvider();
    const provider = new KeystoreFileKeyProvider({ files, password: () => 'wrong passphrase' });
    const wrongPassword = (await provider.getSigner(8453).catch((error: unknown) => error)) as AppError;
    expect([wrongPassword.code, wrongPassword.message]).toEqual([
      'SIGNER_KEY_UNAVAILABLE',
      `No signing key for chain 8453: keystore file ${files[8453]} could not be decrypted`,
    ]);
    const unconfigured = (await provider.getSigner(1).catch((error: unknown) => error)) as AppError;
    expect(unconfigured.message).toBe('No signing key for chain 1: no keystore file configured');
  });
});
