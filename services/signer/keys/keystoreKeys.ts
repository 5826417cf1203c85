import fs from 'node:fs/promises';
import { Wallet } from 'ethers';
import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../../platform/clock';
import { signerKeyUnavailable } from '../errors';
import { RefreshingKeys } from './refreshingKeys';
import { WalletChainSigner, type ChainSigner, type SignerKeyProvider } from './signerKeys';

/** Options of KeystoreFileKeyProvider. */
export interface KeystoreFileKeyProviderOptions {
  /** Encrypted JSON keystore (Web3 Secret Storage v3) path per chain id. */
  files: Readonly<Record<number, string>>;
  /** The keystore password per chain id (from a secret manager or config; never logged). */
  password: (chainId: number) => string | Promise<string>;
  /** Minimum time between checks of a keystore file for replacement; default 1000 ms. */
  recheckMs?: number;
  clock?: Clock;
  logger?: Logger;
}

/**
 * Keys from encrypted JSON keystore files, one per chain id, decrypted with ethers (scrypt). Rotation without
 * restart: replace the file (write a new one and rename it over the old); the provider notices the new version
 * within `recheckMs` and decrypts it, or at once after `rotate()`. If the new file cannot be decrypted, the
 * previous key stays in use and a warning is logged.
 */
export class KeystoreFileKeyProvider implements SignerKeyProvider {
  private readonly keys: RefreshingKeys;

  constructor(private readonly options: KeystoreFileKeyProviderOptions) {
    this.keys = new RefreshingKeys(
      {
        version: (chainId) => this.fileVersion(chainId, this.fileOf(chainId)),
        load: (chainId) => this.decrypt(chainId, this.fileOf(chainId)),
      },
      {
        recheckMs: options.recheckMs ?? 1000,
        clock: options.clock ?? systemClock,
        logger: options.logger ?? pino({ level: 'silent' }),
      },
    );
  }

  getSigner(chainId: number): Promise<ChainSigner> {
    return this.keys.get(chainId);
  }

  async rotate(chainId?: number): Promise<void> {
    this.keys.forget(chainId);
  }

  private fileOf(chainId: number): string {
    const file = this.options.files[chainId];
    if (!file) throw signerKeyUnavailable(chainId, 'no keystore file configured');
    return file;
  }

  private async fileVersion(chainId: number, file: string): Promise<string> {
    try {
      const stat = await fs.stat(file);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      throw signerKeyUnavailable(chainId, `keystore file ${file} is not readable`, error);
    }
  }

  private async decrypt(chainId: number, file: string): Promise<ChainSigner> {
    const json = await fs.readFile(file, 'utf8').catch((error: unknown) => {
      throw signerKeyUnavailable(chainId, `keystore file ${file} is not readable`, error);
    });
    // A password that cannot be had fails with its own reason (`signerKeyUnavailable` from the source).
    const password = await this.options.password(chainId);
    try {
      const wallet = await Wallet.fromEncryptedJson(json, password);
      return new WalletChainSigner(wallet);
    } catch {
      // Not chained: decryption errors may carry password-derived material.
      throw signerKeyUnavailable(chainId, `keystore file ${file} could not be decrypted`);
    }
  }
}
