import { verifyMessage } from 'ethers';
import secp256k1 from 'secp256k1';
import { addressOfPublicKey, personalMessageHash } from './ethereumHashes';

/** r and s (64 bytes) then v = 27 or 28, in hex: the form wallets produce. */
const CANONICAL_SIGNATURE = /^0x[0-9a-fA-F]{128}(?:1[bB]|1[cC])$/;

/**
 * The address that signed `message` as an EIP-191 personal message, in lowercase hex (no EIP-55 checksum, which
 * would cost one more keccak), or undefined for a malformed signature. Recovery runs in libsecp256k1 (the
 * `secp256k1` native binding, about 0.1 ms) and hashing in native Keccak, instead of pure JavaScript (about 1-5 ms),
 * since they are the dominant cost of a wallet sign-in; other encodings (e.g. EIP-2098 compact) go to ethers.
 */
export function recoverPersonalSigner(message: string, signature: string): string | undefined {
  try {
    if (!CANONICAL_SIGNATURE.test(signature)) return verifyMessage(message, signature).toLowerCase();
    const bytes = Buffer.from(signature.slice(2), 'hex');
    const recovery = (bytes[64] as number) - 27;
    const publicKey = secp256k1.ecdsaRecover(
      bytes.subarray(0, 64),
      recovery,
      personalMessageHash(message),
      false,
    );
    return addressOfPublicKey(publicKey);
  } catch {
    return undefined;
  }
}
