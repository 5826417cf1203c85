import { getAddress } from 'ethers';
import { InvalidAddressError } from './errors';

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const LOWERCASE_ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * Parses a request address: accepts the EIP-55 checksummed form or the all-lowercase form, rejects anything else
 * (wrong length, missing `0x`, non-hex, mixed case with a bad checksum, an all-uppercase body that is not the
 * checksum) with InvalidAddressError at `path`. Returns the checksummed address.
 */
export function parseAddress(value: unknown, path = 'address'): string {
  if (typeof value !== 'string') throw new InvalidAddressError(path, 'must be a string');
  if (!HEX_ADDRESS.test(value)) throw new InvalidAddressError(path, 'must be 0x followed by 40 hex digits');
  const checksummed = getAddress(value.toLowerCase());
  if (value === checksummed || LOWERCASE_ADDRESS.test(value)) return checksummed;
  if (value.slice(2) === value.slice(2).toUpperCase()) {
    throw new InvalidAddressError(path, 'must be EIP-55 checksummed or all lowercase');
  }
  throw new InvalidAddressError(path, 'mixed-case address with an invalid EIP-55 checksum');
}
