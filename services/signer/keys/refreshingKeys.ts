import type { Logger } from 'pino';
import type { Clock } from '../../../platform/clock';
import type { AppError } from '../../../platform/errors';
import type { ChainSigner } from './signerKeys';

/** Where a key provider reads one chain's key from. */
export interface KeyMaterial {
  /**
   * A cheap identity of the key material as it is now (a keystore file's inode, size and mtime), so an unchanged
   * one is not decoded again; undefined when only reading the key tells (a secret).
   */
  version(chainId: number): Promise<string | undefined>;
  /** Reads and decodes the key; throws `signerKeyUnavailable` with the reason. */
  load(chainId: number): Promise<ChainSigner>;
}

/** Options of RefreshingKeys. */
export interface RefreshingKeysOptions {
  /** How long a loaded key is used before its material is checked again. */
  recheckMs: number;
  clock: Clock;
  logger: Logger;
}

interface LoadedKey {
  signer: ChainSigner;
  version: string | undefined;
  checkedAt: number;
}

/**
 * The refresh rules every key provider shares. A loaded key is used for `recheckMs`; then its material is checked
 * again and the key reloaded when the version changed (or there is none). Concurrent callers share one refresh.
 * A failed refresh keeps the key in use (the contracts' `setSigner` is what revokes a key), logs a warning with the
 * code only, and is retried after `recheckMs`. `forget` makes the next call reload whatever the version says.
 */
export class RefreshingKeys {
  private readonly loaded = new Map<number, LoadedKey>();
  private readonly pending = new Map<number, Promise<ChainSigner>>();

  constructor(
    private readonly material: KeyMaterial,
    private readonly options: RefreshingKeysOptions,
  ) {}

  /** The key of `chainId`: the loaded one while fresh, else the result of one shared refresh. */
  async get(chainId: number): Promise<ChainSigner> {
    const entry = this.loaded.get(chainId);
    if (entry && this.options.clock.now() - entry.checkedAt < this.options.recheckMs) return entry.signer;
    let refresh = this.pending.get(chainId);
    if (!refresh) {
      refresh = this.refresh(chainId).finally(() => this.pending.delete(chainId));
      this.pending.set(chainId, refresh);
    }
    return refresh;
  }

  /** Forces a reload on the next `get` (of `chainId`, or of every chain). */
  forget(chainId?: number): void {
    for (const [id, entry] of this.loaded) {
      if (chainId !== undefined && id !== chainId) continue;
      entry.checkedAt = Number.NEGATIVE_INFINITY;
      entry.version = '';
    }
  }

  private async refresh(chainId: number): Promise<ChainSigner> {
    const { clock, logger } = this.options;
    const entry = this.loaded.get(chainId);
    try {
      const version = await this.material.version(chainId);
      if (entry && version !== undefined && entry.version === version) {
        entry.checkedAt = clock.now();
        return entry.signer;
      }
      const signer = await this.material.load(chainId);
      this.loaded.set(chainId, { signer, version, checkedAt: clock.now() });
      if (!entry || entry.version !== version || entry.signer.address !== signer.address) {
        logger.info({ chainId, address: signer.address, rotated: entry !== undefined }, 'signer key loaded');
      }
      return signer;
    } catch (error) {
      if (!entry) throw error;
      logger.warn({ chainId, code: (error as AppError).code }, 'signer key refresh failed');
      entry.checkedAt = clock.now();
      return entry.signer;
    }
  }
}
