import { getBytes, hashMessage, keccak256, verifyMessage } from 'ethers';
import secp256k1 from 'secp256k1';

/**
 * The address that signed `message` as an EIP-191 personal message, in lowercase hex (no EIP-55 checksum, which
 * would cost one more keccak), or undefined for a malformed signature. Recovery runs in libsecp256k1 (the
 * `secp256k1` native binding, about 0.1 ms) instead of pure JavaScript (about 1-5 ms), since it is the dominant cost
 * of a wallet sign-in; non-canonical encodings fall back to ethers.
 */
export function recoverPersonalSigner(message: string, signature: string): string | undefined {
  try {
    const bytes = getBytes(signature);
    const v = bytes[64];
    if (bytes.length !== 65 || v === undefined || (v !== 27 && v !== 28))
      return verifyMessage(message, signature).toLowerCase();
    const publicKey = secp256k1.ecdsaRecover(
      bytes.subarray(0, 64),
      v - 27,
      getBytes(hashMessage(message)),
      false,
    );
    return `0x${keccak256(publicKey.subarray(1)).slice(-40)}`;
  } catch {
    return undefined;
  }
}
