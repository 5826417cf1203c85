import type { Agenda } from 'agenda';
import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import { chainCursorModel, type ChainCursorRecord } from '../../../models/ChainCursor';
import { chainUnavailable } from '../errors';
import { unknownSignaturesConsumed } from '../metrics';
import type { MongoSignatureStore } from '../issuing/signatureStore';
import type { SignerCore } from '../issuing/signerCore';
import type { ConsumedSignature } from './usageTracker';

/** Name of the Agenda job that tracks on-chain use of issued signatures. */
export const SIGNER_USAGE_JOB = 'signer-usage-tracking';
/** How often the job runs (Base mines every 2 s; the platform's scheduler looks for due jobs every 5 s). */
export const SIGNER_USAGE_INTERVAL = '5 seconds';

/** The chain reads the tracking needs beyond the core (an ethers Provider fits). */
export interface BlockReader {
  getBlockNumber(): Promise<number>;
  getBlock(blockNumber: number): Promise<{ timestamp: number } | null>;
}

/** Options of SignatureUsageTracking. */
export interface SignatureUsageTrackingOptions {
  core: SignerCore;
  store: MongoSignatureStore;
  connection: Connection;
  blocks: BlockReader;
  /** First block scanned when no cursor is stored yet; default the latest block at the first start-up. */
  startBlock?: number;
  /** Blocks to stay behind the head; default 2. */
  confirmations?: number;
  logger: Logger;
}

/**
 * Marks stored signatures used from the contracts' SignatureConsumed events (SPEC 4.10 rule 5, SPEC 6). Each run
 * resumes from a cursor kept in MongoDB, so it survives restarts and moves between worker processes; Agenda's lock
 * lets one worker run it at a time. A consumed signature the store does not know raises an alert.
 */
export class SignatureUsageTracking {
  /** The cursor's id: one per chain and pair of contracts. */
  readonly cursorId: string;
  private readonly cursors: Model<ChainCursorRecord>;

  constructor(private readonly options: SignatureUsageTrackingOptions) {
    const { core } = options;
    this.cursorId = `signer-usage:${core.chainId}:${core.forge.address}:${core.seed.address}`.toLowerCase();
    this.cursors = chainCursorModel(options.connection);
  }

  /** Creates the cursor if none is stored (at `startBlock`, or the latest block); call before issuing anything. */
  async initialize(): Promise<void> {
    const start =
      this.options.startBlock ??
      (await this.read('getBlockNumber', () => this.options.blocks.getBlockNumber()));
    await this.cursors.updateOne(
      { _id: this.cursorId },
      { $setOnInsert: { nextBlock: start } },
      { upsert: true },
    );
  }

  /**
   * One run: scans the confirmed blocks since the cursor, saving the cursor after each block range (so an
   * interrupted run resumes where it stopped); `onProgress` runs after each range too. Returns the events handled.
   */
  async track(onProgress?: () => Promise<void>): Promise<number> {
    const cursor = await this.cursors.findById(this.cursorId).lean();
    // No cursor: the signer never started, so it issued nothing yet.
    if (!cursor) return 0;
    const timestamps = new Map<number, Date>();
    const tracker = this.options.core.createUsageTracker({
      fromBlock: cursor.nextBlock,
      confirmations: this.options.confirmations,
      onConsumed: (event) => this.markUsed(event, timestamps),
      onProgress: async (nextBlock) => {
        // Never moves the cursor back (another worker may have run meanwhile).
        await this.cursors.updateOne(
          { _id: this.cursorId, nextBlock: { $lt: nextBlock } },
          { $set: { nextBlock } },
        );
        await onProgress?.();
      },
    });
    return tracker.poll();
  }

  /** Defines the job and schedules it every SIGNER_USAGE_INTERVAL (a JobRegistrar). */
  async registerJob(agenda: Agenda): Promise<void> {
    agenda.define(
      SIGNER_USAGE_JOB,
      async (job) => {
        await this.track(() => job.touch());
      },
      // Each block range extends the lock, so a long catch-up is not taken for a dead worker.
      { concurrency: 1, lockLifetime: 5_000 },
    );
    await agenda.every(SIGNER_USAGE_INTERVAL, SIGNER_USAGE_JOB);
  }

  private async markUsed(event: ConsumedSignature, timestamps: Map<number, Date>): Promise<void> {
    let usedAt = timestamps.get(event.blockNumber);
    if (!usedAt) {
      const block = await this.read('getBlock', () => this.options.blocks.getBlock(event.blockNumber));
      if (!block) throw chainUnavailable('getBlock', new Error(`block ${event.blockNumber} not found`));
      usedAt = new Date(block.timestamp * 1000);
      timestamps.set(event.blockNumber, usedAt);
    }
    const outcome = await this.options.store.markUsed(event, usedAt);
    if (outcome !== 'unknown') return;
    unknownSignaturesConsumed.inc({ contract: event.contract });
    this.options.logger.warn(
      {
        alert: 'UnknownSignatureConsumed',
        chainId: event.chainId,
        contract: event.contract,
        user: event.user,
        nonce: event.nonce.toString(),
        signatureHash: event.signatureHash,
        transactionHash: event.transactionHash,
      },
      'a contract consumed a signature this signer has no record of',
    );
  }

  private async read<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw chainUnavailable(operation, error);
    }
  }
}
