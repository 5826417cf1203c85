import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/** What an issued signature authorizes (mirrors services/signer/signatureRecord.ts `SignatureKind`). */
export const SIGNATURE_KINDS = ['forge-start', 'forge-claim', 'punk-seed-mint'] as const;

/**
 * A contract signature the signer issued (SPEC 4.10 rule 5): what it authorizes, for whom, on which chain and
 * contract, and whether the contract has consumed it. Addresses are stored EIP-55 checksummed, so equality
 * queries need no case folding. `signatureHash` (keccak256 of the signature bytes) is what the contracts emit in
 * `SignatureConsumed`, so the usage tracker finds the record by it. Records are never deleted: they are the audit
 * trail of what the key signed.
 */
export interface IssuedSignatureRecord {
  _id: Types.ObjectId;
  kind: (typeof SIGNATURE_KINDS)[number];
  chainId: number;
  /** The verifying contract. */
  contract: string;
  /** The address the signature is for (forger or minter). */
  requester: string;
  /** The signing key's address. */
  signer: string;
  /** The contract nonce the signature carries, as a decimal string (uint256). */
  nonce: string;
  signature: string;
  signatureHash: string;
  /** The signed payload: EIP-712 typed data (`format: "eip712"`) or the EIP-191 mint message (`"eip191"`). */
  payload: Record<string, unknown>;
  /** Who asked: `user:<id>` for a signed-in user, `service` for the service token. */
  requestedBy: string;
  issuedAt: Date;
  /**
   * Claim and mint signatures are deterministic (RFC 6979): asking again before the nonce is used returns the same
   * bytes, stored once; this counts the requests and `lastIssuedAt` dates the latest.
   */
  timesIssued: number;
  lastIssuedAt: Date;
  /** Start signatures: the last block timestamp the contract accepts them at; null for the others. */
  expiresAt: Date | null;
  used: boolean;
  /** Timestamp of the block whose transaction consumed the signature. */
  usedAt: Date | null;
  txHash: string | null;
  blockNumber: number | null;
}

const issuedSignatureSchema = new Schema<IssuedSignatureRecord>({
  kind: { type: String, enum: SIGNATURE_KINDS, required: true },
  chainId: { type: Number, required: true },
  contract: { type: String, required: true },
  requester: { type: String, required: true },
  signer: { type: String, required: true },
  nonce: { type: String, required: true },
  signature: { type: String, required: true },
  signatureHash: { type: String, required: true, unique: true },
  payload: { type: Schema.Types.Mixed, required: true },
  requestedBy: { type: String, required: true },
  issuedAt: { type: Date, required: true },
  timesIssued: { type: Number, required: true, min: 1 },
  lastIssuedAt: { type: Date, required: true },
  expiresAt: { type: Date, default: null },
  used: { type: Boolean, default: false },
  usedAt: { type: Date, default: null },
  txHash: { type: String, default: null },
  blockNumber: { type: Number, default: null },
});
// The reuse check: "is this nonce of this user on this contract already consumed?"
issuedSignatureSchema.index({ chainId: 1, contract: 1, requester: 1, nonce: 1 });

export const issuedSignatureModel = (connection: Connection) =>
  modelFor(connection, 'IssuedSignature', issuedSignatureSchema);
