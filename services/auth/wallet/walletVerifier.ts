import type { Provider } from 'ethers';
import { contractWalletAccepts } from './contractWallet';
import { walletSignInError } from './errors';
import { recoverPersonalSigner } from './signatureRecovery';
import { parseSiweMessage, type SiweFields } from './siweMessage';

export interface WalletProof {
  address: string;
  signature: string;
  nonce: string;
  message: string;
}

export interface WalletExpectations {
  /** SIWE_DOMAIN: the message must name exactly this domain. */
  domain: string;
  /** When set, the message's chain id must equal it. */
  chainId?: number;
  now: Date;
  /** RPC provider for EIP-1271 smart-contract wallets; without one only EOA signatures verify. */
  provider?: Provider;
}

/** A proven wallet: the checksummed address and the parsed message. */
export interface VerifiedWallet {
  address: string;
  chainId: number;
  message: SiweFields;
}

function parse(text: string): SiweFields {
  try {
    return parseSiweMessage(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw walletSignInError('SIWE_MESSAGE_INVALID', `The message is not a valid EIP-4361 message: ${reason}`);
  }
}

/**
 * Checks a SIWE proof against the posted fields and the server's expectations, in the order a client would fix
 * them: message syntax, nonce, address, domain, chain, validity window, then the signature (EOA via ecrecover over
 * the exact signed text, or EIP-1271 through the provider). Throws a wallet sign-in error (`walletSignInError`) with a specific code, or a
 * 503 when the provider is needed and cannot answer.
 */
export async function verifyWalletProof(
  proof: WalletProof,
  expect: WalletExpectations,
): Promise<VerifiedWallet> {
  const message = parse(proof.message);
  if (message.nonce !== proof.nonce) {
    throw walletSignInError('SIWE_NONCE_MISMATCH', 'The message nonce is not the posted nonce');
  }
  if (message.address.toLowerCase() !== proof.address.toLowerCase()) {
    throw walletSignInError('SIWE_ADDRESS_MISMATCH', 'The message address is not the posted address');
  }
  if (message.domain !== expect.domain) {
    throw walletSignInError('SIWE_DOMAIN_MISMATCH', `The message must be for domain ${expect.domain}`);
  }
  if (expect.chainId !== undefined && message.chainId !== expect.chainId) {
    throw walletSignInError('SIWE_CHAIN_MISMATCH', `The message must be for chain ${expect.chainId}`);
  }
  const now = expect.now.getTime();
  if (message.expirationTime && now >= Date.parse(message.expirationTime)) {
    throw walletSignInError('SIWE_MESSAGE_EXPIRED', 'The message has expired');
  }
  if (message.notBefore && now < Date.parse(message.notBefore)) {
    throw walletSignInError('SIWE_MESSAGE_NOT_YET_VALID', 'The message is not valid yet');
  }
  // The parser accepts only the EIP-55 form, so the message's address is already checksummed.
  const address = message.address;
  if (recoverPersonalSigner(proof.message, proof.signature) !== address.toLowerCase()) {
    const contractValid =
      expect.provider !== undefined &&
      (await contractWalletAccepts(expect.provider, address, proof.message, proof.signature));
    if (!contractValid) {
      throw walletSignInError('SIWE_SIGNATURE_INVALID', 'The signature was not made by the address');
    }
  }
  return { address, chainId: message.chainId, message };
}
