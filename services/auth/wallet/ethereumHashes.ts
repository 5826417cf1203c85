import createKeccakHash from 'keccak';

/**
 * The Keccak hashes of wallet sign-in, in native code (the `keccak` binding, about 3-4 µs a hash, against 7-20 µs for
 * ethers' pure-JavaScript one, which a sign-in ran three times), producing exactly what ethers' `keccak256`,
 * `hashMessage` and `getAddress` produce.
 */

/** Keccak-256 (Ethereum's, not SHA3-256) of `data`. */
export function keccak256(data: Uint8Array): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return createKeccakHash('keccak256').update(bytes).digest();
}

/** The EIP-191 hash a wallet signs for a personal message (`personal_sign`): ethers' `hashMessage(message)`. */
export function personalMessageHash(message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  return keccak256(
    Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${text.length}`, 'utf8'), text]),
  );
}

/** The EIP-55 (mixed-case checksum) form of a `0x` + 40 hex digit address, whatever its case. */
export function checksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(Buffer.from(lower, 'ascii'));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? (lower[i] as string).toUpperCase() : lower[i];
  }
  return out;
}

/** The address of an uncompressed secp256k1 public key (65 bytes, 0x04 prefix), in lowercase hex. */
export function addressOfPublicKey(publicKey: Uint8Array): string {
  return `0x${keccak256(publicKey.subarray(1)).subarray(12).toString('hex')}`;
}
