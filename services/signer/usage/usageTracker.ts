import { id, Interface, type Log } from 'ethers';
import pino, { type Logger } from 'pino';
import { THE_FORGE_ABI } from '../chain/chainContracts';
import { chainUnavailable } from '../errors';
import type { ConsumedNonceLookup, ContractNonce } from './reuseAlerts';

/** A signature the chain accepted, from a SignatureConsumed event (emitted by both contracts). */
export interface ConsumedSignature {
  chainId: number;
  contract: string;
  user: string;
  nonce: bigint;
  /** keccak256 of the signature bytes: matches SignatureRecord.signatureHash. */
  signatureHash: string;
  blockNumber: number;
  transactionHash: string;
  logIndex: number;
}

/** The log reads the tracker needs (an ethers Provider fits). */
export interface LogSource {
  getBlockNumber(): Promise<number>;
  getLogs(filter: {
    address: string[];
    topics: string[][];
    fromBlock: number;
    toBlock: number;
  }): Promise<Log[]>;
}

/** Options of SignatureUsageTracker. */
export interface SignatureUsageTrackerOptions {
  chainId: number;
  logs: LogSource;
  /** TheForge and PunkSeed addresses. */
  contracts: string[];
  /** First block to scan (persist `nextBlock` after each poll and pass it back here on restart). */
  fromBlock: number;
  /** Blocks to stay behind the head, so a reorged log is never reported; default 2. */
  confirmations?: number;
  /** Largest block range per getLogs call; default 2000. */
  maxBlockRange?: number;
  /** Marks the stored signature used (and invalidates the user's cached nonce). Awaited in log order. */
  onConsumed: (event: ConsumedSignature) => Promise<void>;
  /** Called after each scanned block range with the new `nextBlock` (persist the cursor, extend a job lock). */
  onProgress?: (nextBlock: number) => Promise<void>;
  logger?: Logger;
}

const guardInterface = new Interface(THE_FORGE_ABI);
const CONSUMED_TOPIC = id('SignatureConsumed(address,uint256,bytes32)');

/**
 * Tracks on-chain use of issued signatures by scanning the contracts' SignatureConsumed events, so stored
 * signatures become "used" (SPEC 4.10 rule 5, SPEC 6). Call `poll()` on a schedule (e.g. every 2 s, Base's block
 * time); it resumes from `nextBlock`.
 */
export class SignatureUsageTracker {
  private next: number;
  private readonly confirmations: number;
  private readonly maxBlockRange: number;
  private readonly logger: Logger;

  constructor(private readonly options: SignatureUsageTrackerOptions) {
    this.next = options.fromBlock;
    this.confirmations = options.confirmations ?? 2;
    this.maxBlockRange = options.maxBlockRange ?? 2000;
    this.logger = options.logger ?? pino({ level: 'silent' });
  }

  /** The first block the next poll scans. */
  get nextBlock(): number {
    return this.next;
  }

  /** Scans confirmed blocks since the last poll; returns the number of consumed signatures reported. */
  async poll(): Promise<number> {
    const head = await this.read('getBlockNumber', () => this.options.logs.getBlockNumber());
    const last = head - this.confirmations;
    let reported = 0;
    while (this.next <= last) {
      const toBlock = Math.min(last, this.next + this.maxBlockRange - 1);
      const logs = await this.read('getLogs', () =>
        this.options.logs.getLogs({
          address: this.options.contracts,
          topics: [[CONSUMED_TOPIC]],
          fromBlock: this.next,
          toBlock,
        }),
      );
      for (const log of logs) {
        await this.options.onConsumed(this.decode(log));
        reported += 1;
      }
      this.next = toBlock + 1;
      await this.options.onProgress?.(this.next);
    }
    if (reported > 0) this.logger.info({ reported, nextBlock: this.next }, 'consumed signatures tracked');
    return reported;
  }

  private decode(log: Log): ConsumedSignature {
    const parsed = guardInterface.parseLog(log);
    if (!parsed) throw new Error(`unexpected log in ${log.transactionHash}`);
    const [user, nonce, signatureHash] = parsed.args as unknown as [string, bigint, string];
    return {
      chainId: this.options.chainId,
      contract: log.address,
      user,
      nonce,
      signatureHash,
      blockNumber: log.blockNumber,
      transactionHash: log.transactionHash,
      logIndex: log.index,
    };
  }

  private async read<T>(operation: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw chainUnavailable(operation, error);
    }
  }
}

/**
 * Consumed nonces kept in process memory, fed by the tracker: a ConsumedNonceLookup for a single process or
 * tests. With several processes, answer `isConsumed` from the shared signature store instead.
 */
export class InMemoryConsumedNonces implements ConsumedNonceLookup {
  private readonly consumed = new Set<string>();

  /** Records a consumed signature (pass as, or call from, the tracker's onConsumed). */
  record(event: Pick<ConsumedSignature, 'chainId' | 'contract' | 'user' | 'nonce'>): void {
    this.consumed.add(InMemoryConsumedNonces.key(event));
  }

  async isConsumed(query: ContractNonce): Promise<boolean> {
    return this.consumed.has(InMemoryConsumedNonces.key(query));
  }

  private static key(entry: ContractNonce): string {
    return `${entry.chainId}:${entry.contract.toLowerCase()}:${entry.user.toLowerCase()}:${entry.nonce}`;
  }
}
