import { getAddress } from 'ethers';
import type { Connection, Model } from 'mongoose';
import {
  issuedSignatureModel,
  type IssuedSignatureRecord,
  type SignatureRecord,
} from '../../../models/IssuedSignature';
import type { ConsumedNonceLookup, ContractNonce } from '../usage/reuseAlerts';
import type { ConsumedSignature } from '../usage/usageTracker';

const DUPLICATE_KEY = 11000;

/** Who asked for a signature: `user:<id>` for a signed-in user, `service` for the service token. */
export interface SignatureRequester {
  requestedBy: string;
}

/** What marking a consumed signature found: newly marked, already marked, or never issued by this signer. */
export type MarkUsedOutcome = 'marked' | 'already-used' | 'unknown';

/**
 * Issued signatures in MongoDB (`IssuedSignature`), shared by every API process: saved when issued, marked used
 * when the contract's SignatureConsumed event is seen, and asked whether a user's nonce is already consumed (the
 * reuse check before signing).
 */
export class MongoSignatureStore implements ConsumedNonceLookup {
  private constructor(private readonly model: Model<IssuedSignatureRecord>) {}

  /** Binds the model to `connection` and builds its indexes (the unique signature hash among them). */
  static async open(connection: Connection): Promise<MongoSignatureStore> {
    const model = issuedSignatureModel(connection);
    await model.init();
    return new MongoSignatureStore(model);
  }

  /**
   * Stores an issued signature, unused. Issuing the same bytes again (a claim or mint asked for twice before its
   * nonce was used) keeps the first record and counts the repeat. Insert first: repeats are rare, and a plain
   * insert is several times cheaper than an upsert.
   */
  async save(record: SignatureRecord, requester: SignatureRequester): Promise<void> {
    try {
      await this.model.create({
        ...record,
        contract: getAddress(record.contract),
        requester: getAddress(record.requester),
        requestedBy: requester.requestedBy,
        timesIssued: 1,
        lastIssuedAt: record.issuedAt,
        used: false,
        usedAt: null,
        txHash: null,
        blockNumber: null,
      });
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      await this.model.updateOne(
        { signatureHash: record.signatureHash },
        { $set: { lastIssuedAt: record.issuedAt }, $inc: { timesIssued: 1 } },
      );
    }
  }

  async isConsumed(query: ContractNonce): Promise<boolean> {
    const found = await this.model.exists({
      chainId: query.chainId,
      contract: getAddress(query.contract),
      requester: getAddress(query.user),
      nonce: query.nonce.toString(),
      used: true,
    });
    return found !== null;
  }

  /**
   * Marks the signature an event consumed as used, with the transaction and the block time (also completing one
   * marked used earlier on a client's report, which had no transaction yet).
   */
  async markUsed(event: ConsumedSignature, usedAt: Date): Promise<MarkUsedOutcome> {
    const marked = await this.model.updateOne(
      { signatureHash: event.signatureHash, txHash: null },
      { $set: { used: true, usedAt, txHash: event.transactionHash, blockNumber: event.blockNumber } },
    );
    if (marked.modifiedCount === 1) return 'marked';
    return (await this.model.exists({ signatureHash: event.signatureHash })) ? 'already-used' : 'unknown';
  }

  /** The stored signature whose bytes hash to `signatureHash`, if this signer issued it. */
  findByHash(signatureHash: string): Promise<IssuedSignatureRecord | null> {
    return this.model.findOne({ signatureHash: signatureHash.toLowerCase() }).lean<IssuedSignatureRecord>();
  }

  /** Marks a signature used on the contract's word (isSignatureUsed) before its event was tracked. */
  async markUsedByReport(signatureHash: string): Promise<void> {
    await this.model.updateOne({ signatureHash, used: false }, { $set: { used: true } });
  }
}
