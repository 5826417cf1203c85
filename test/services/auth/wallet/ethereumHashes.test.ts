import { randomBytes } from 'node:crypto';
import { getAddress, hashMessage, keccak256 as ethersKeccak256, SigningKey, computeAddress } from 'ethers';
import {
  addressOfPublicKey,
  checksumAddress,
  keccak256,
  personalMessageHash,
} from '../../../../services/auth/wallet/ethereumHashes';

describe('native Ethereum hashes', () => {
  it('computes the same Keccak-256 as ethers on every length around the 136-byte block', () => {
    for (const length of [0, 1, 31, 32, 64, 135, 136, 137, 271, 272, 273, 1000]) {
      const data = randomBytes(length);
      expect(`0x${keccak256(data).toString('hex')}`).toBe(ethersKeccak256(data));
      // A Uint8Array view into a larger buffer hashes only its own bytes.
      const backing = new Uint8Array(length + 2);
      backing.set(data, 2);
      const view = backing.subarray(2);
      expect(`0x${keccak256(view).toString('hex')}`).toBe(ethersKeccak256(data));
    }
  });

  it('hashes personal messages as ethers hashMessage does, counting UTF-8 bytes', () => {
    for (const message of ['', 'hello', 'Sign in to Forgé 🔥\nnonce 1', 'x'.repeat(500)]) {
      expect(`0x${personalMessageHash(message).toString('hex')}`).toBe(hashMessage(message));
    }
  });

  it('gives the EIP-55 form of an address in any case, as ethers getAddress does', () => {
    for (let i = 0; i < 50; i++) {
      const address = getAddress(`0x${randomBytes(20).toString('hex')}`);
      expect(checksumAddress(address.toLowerCase())).toBe(address);
      expect(checksumAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
      expect(checksumAddress(address)).toBe(address);
    }
  });

  it('derives the address of an uncompressed public key', () => {
    const key = new SigningKey(`0x${randomBytes(32).toString('hex')}`);
    const publicKey = Buffer.from(key.publicKey.slice(2), 'hex');
    expect(addressOfPublicKey(publicKey)).toBe(computeAddress(key.publicKey).toLowerCase());
  });
});
