import { keccak256, type TypedDataField } from 'ethers';

/** What a signature authorizes. */
export type SignatureKind = 'forge-start' | 'forge-claim' | 'punk-seed-mint';

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
 * Everything worth storing about an issued signature (SPEC 4.10 rule 5): the persistence layer saves it as is,
 * marks it used when the contract's SignatureConsumed event carries its `signatureHash`, and expires it after
 * `expiresAt` when set.
 */
export interface SignatureRecord {
  kind: SignatureKind;
  chainId: number;
  /** The verifying contract. */
  contract: string;
  /** The address the signature is for (forger or minter), checksummed. */
  requester: string;
  /** The signing key's address. */
  signer: string;
  /** The contract nonce the signature carries, decimal. */
  nonce: string;
  signature: string;
  /** keccak256 of the signature bytes, as the contracts emit it in SignatureConsumed. */
  signatureHash: string;
  payload: TypedDataPayload | PersonalMessagePayload;
  issuedAt: Date;
  /** Start signatures only: the last block timestamp at which the contract accepts it. */
  expiresAt: Date | null;
}

/** keccak256 of a signature's bytes: the id contracts use in SignatureConsumed and SignatureAlreadyUsed. */
export function signatureHashOf(signature: string): string {
  return keccak256(signature);
}
