import fs from 'node:fs/promises';
import { Wallet } from 'ethers';
import pino, { type Logger } from 'pino';
import { systemClock, type Clock } from '../../../platform/clock';
import { SignerKeyUnavailableError } from '../errors';
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

interface LoadedKey {
  signer: ChainSigner;
  /** Identity of the file version the key came from (inode, size, mtime). */
  version: string;
  checkedAt: number;
}

/**
 * Keys from encrypted JSON keystore files, one per chain id, decrypted with ethers (scrypt). Rotation without
 * restart: replace the file (write a new one and rename it over the old); the provider notices the new version
 * within `recheckMs` and decrypts it, or at once after `rotate()`. If the new file cannot be decrypted, the
 * previous key stays in use and a warning is logged.
 */
export class KeystoreFileKeyProvider implements SignerKeyProvider {
  private readonly loaded = new Map<number, LoadedKey>();
  private readonly pending = new Map<number, Promise<ChainSigner>>();
  private readonly recheckMs: number;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(private readonly options: KeystoreFileKeyProviderOptions) {
    this.recheckMs = options.recheckMs ?? 1000;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? pino({ level: 'silent' });
  }

  async getSigner(chainId: number): Promise<ChainSigner> {
    const entry = this.loaded.get(chainId);
    if (entry && this.clock.now() - entry.checkedAt < this.recheckMs) return entry.signer;
    let refresh = this.pending.get(chainId);
    if (!refresh) {
      refresh = this.refresh(chainId).finally(() => this.pending.delete(chainId));
      this.pending.set(chainId, refresh);
    }
    return refresh;
  }

  async rotate(chainId?: number): Promise<void> {
    for (const [id, entry] of this.loaded) {
      if (chainId !== undefined && id !== chainId) continue;
      // Forces a decrypt on the next getSigner even if the file looks unchanged.
      entry.checkedAt = Number.NEGATIVE_INFINITY;
      entry.version = '';
    }
  }

  private async refresh(chainId: number): Promise<ChainSigner> {
    const entry = this.loaded.get(chainId);
    try {
      const file = this.options.files[chainId];
      if (!file) throw new SignerKeyUnavailableError(chainId, 'no keystore file configured');
      const version = await this.fileVersion(chainId, file);
      if (entry && entry.version === version) {
        entry.checkedAt = this.clock.now();
        return entry.signer;
      }
      const signer = await this.decrypt(chainId, file);
      this.loaded.set(chainId, { signer, version, checkedAt: this.clock.now() });
      this.logger.info(
        { chainId, address: signer.address, rotated: entry !== undefined },
        'signer key loaded',
      );
      return signer;
    } catch (error) {
      if (!entry) throw error;
      this.logger.warn(
        { chainId, code: (error as SignerKeyUnavailableError).code },
        'signer key refresh failed',
      );
      entry.checkedAt = this.clock.now();
      return entry.signer;
    }
  }

  private async fileVersion(chainId: number, file: string): Promise<string> {
    try {
      const stat = await fs.stat(file);
      return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    } catch (error) {
      throw new SignerKeyUnavailableError(chainId, `keystore file ${file} is not readable`, error);
    }
  }

  private async decrypt(chainId: number, file: string): Promise<ChainSigner> {
    const json = await fs.readFile(file, 'utf8').catch((error: unknown) => {
      throw new SignerKeyUnavailableError(chainId, `keystore file ${file} is not readable`, error);
    });
    // A password that cannot be had fails with its own reason (SignerKeyUnavailableError from the source).
    const password = await this.options.password(chainId);
    try {
      const wallet = await Wallet.fromEncryptedJson(json, password);
      return new WalletChainSigner(wallet);
    } catch {
      // Not chained: decryption errors may carry password-derived material.
      throw new SignerKeyUnavailableError(chainId, `keystore file ${file} could not be decrypted`);
    }
  }
}
