import { computeForgeId, FORGE_START_WINDOW_SECONDS, type ForgePath } from '../../../contracts/typedData';
import { systemClock, type Clock } from '../../../platform/clock';
import { chainUnavailable, SignerConfigError } from '../errors';

/** Where the latest block comes from (an ethers Provider fits). */
export interface BlockSource {
  getBlock(tag: 'latest'): Promise<{ timestamp: number } | null>;
}

/** Options of ForgeIdPredictor. */
export interface ForgeIdPredictorOptions {
  blocks: BlockSource;
  /** Seconds added to the latest block timestamp; 10..30, default 20 (SPEC 2.8). */
  bufferSeconds?: number;
  /** How long one latest-block read is reused; default 1000 ms (Base mines every 2 s). */
  blockCacheMs?: number;
  clock?: Clock;
}

/** A predicted forge: its id and the timestamp it was derived from (returned to clients as expiresAt). */
export interface PredictedForge {
  forgeId: string;
  /** Unix seconds; the start transaction must be mined at or before it, and at most 30 s earlier. */
  timestamp: number;
}

/** Inclusive bounds of the buffer SPEC 2.8 recommends; the upper one is also TheForge.START_WINDOW. */
export const FORGE_BUFFER_RANGE = { min: 10, max: FORGE_START_WINDOW_SECONDS } as const;

/**
 * Predicts the forgeId TheForge will compute: keccak256(forger, path, timestamp, nonce) with timestamp = latest
 * block timestamp + buffer. The contract accepts the start transaction in any block from timestamp - 30 s up
 * to timestamp, so the buffer is the user's time to get the transaction mined.
 */
export class ForgeIdPredictor {
  readonly bufferSeconds: number;
  private readonly blockCacheMs: number;
  private readonly clock: Clock;
  private cached?: { timestamp: number; readAt: number };
  private inflight?: Promise<number>;

  constructor(private readonly options: ForgeIdPredictorOptions) {
    this.bufferSeconds = options.bufferSeconds ?? 20;
    const { min, max } = FORGE_BUFFER_RANGE;
    if (!Number.isInteger(this.bufferSeconds) || this.bufferSeconds < min || this.bufferSeconds > max) {
      throw new SignerConfigError(
        `forge timestamp buffer must be an integer ${min}..${max} s, got ${this.bufferSeconds}`,
      );
    }
    this.blockCacheMs = options.blockCacheMs ?? 1000;
    this.clock = options.clock ?? systemClock;
  }

  /** The forgeId and timestamp to sign for this forger, path and nonce. */
  async predict(input: { forger: string; path: ForgePath; nonce: bigint }): Promise<PredictedForge> {
    const timestamp = (await this.latestBlockTimestamp()) + this.bufferSeconds;
    return { forgeId: computeForgeId({ ...input, timestamp }), timestamp };
  }

  /** Timestamp of the chain's latest block (cached up to `blockCacheMs`). */
  async latestBlockTimestamp(): Promise<number> {
    if (this.cached && this.clock.now() - this.cached.readAt < this.blockCacheMs)
      return this.cached.timestamp;
    this.inflight ??= this.readLatest().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async readLatest(): Promise<number> {
    const readAt = this.clock.now();
    let block: { timestamp: number } | null;
    try {
      block = await this.options.blocks.getBlock('latest');
    } catch (error) {
      throw chainUnavailable('getBlock(latest)', error);
    }
    if (!block) throw chainUnavailable('getBlock(latest)', new Error('node returned no latest block'));
    this.cached = { timestamp: block.timestamp, readAt };
    return block.timestamp;
  }
}
