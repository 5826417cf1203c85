import { keccak256, type TypedDataField } from 'ethers';
import { Schema, type Connection, type Types } from 'mongoose';
import { modelFor } from './modelFor';

/** What an issued signature authorizes. */
export const SIGNATURE_KINDS = ['forge-start', 'forge-claim', 'punk-seed-mint'] as const;
/** One of SIGNATURE_KINDS. */
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];

/** An EIP-712 payload in the JSON shape of eth_signTypedData_v4 (uint256 values as decimal strings). */
export interface TypedDataPayload {
  format: 'eip712';
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  primaryType: 'ForgeStart' | 'ForgeClaim';
  types: Record<string, TypedDataField[]>;
  message: Record<string, string | number>;
}

/** The seed mint payload: the packed-hash message signed as an EIP-191 personal message. */
export interface PersonalMessagePayload {
  format: 'eip191';
  /** keccak256(abi.encodePacked(to, nonce, "MINT_PUNK_SEED")). */
  messageHash: string;
  message: { to: string; nonce: string; tag: string };
}

/**
 * What the signer knows when it issues a signature (SPEC 4.10 rule 5): what it authorizes, for whom, on which chain
 * and contract. The issuers build it; the store saves it as an `IssuedSignatureRecord`.
 */
export interface SignatureRecord {
  kind: SignatureKind;
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
  /** keccak256 of the signature bytes, as the contracts emit it in SignatureConsumed. */
  signatureHash: string;
  /** The signed payload: EIP-712 typed data (`format: "eip712"`) or the EIP-191 mint message (`"eip191"`). */
  payload: TypedDataPayload | PersonalMessagePayload;
  issuedAt: Date;
  /** Start signatures: the last block timestamp the contract accepts them at; null for the others. */
  expiresAt: Date | null;
}

/**
 * A stored issued signature: the `SignatureRecord` plus who asked and whether the contract has consumed it.
 * Addresses are stored EIP-55 checksummed, so equality queries need no case folding. `signatureHash` is what the
 * contracts emit in `SignatureConsumed`, so the usage tracker finds the record by it. Records are never deleted:
 * they are the audit trail of what the key signed.
 */
export interface IssuedSignatureRecord extends SignatureRecord {
  _id: Types.ObjectId;
  /** Who asked: `user:<id>` for a signed-in user, `service` for the service token. */
  requestedBy: string;
  /**
   * Claim and mint signatures are deterministic (RFC 6979): asking again before the nonce is used returns the same
   * bytes, stored once; this counts the requests and `lastIssuedAt` dates the latest.
   */
  timesIssued: number;
  lastIssuedAt: Date;
  used: boolean;
  /** Timestamp of the block whose transaction consumed the signature. */
  usedAt: Date | null;
  txHash: string | null;
  blockNumber: number | null;
}

/** keccak256 of a signature's bytes: the id contracts use in SignatureConsumed and SignatureAlreadyUsed. */
export function signatureHashOf(signature: string): string {
  return keccak256(signature);
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
