import { FORGE_PATH_COUNT, type ForgePath } from '../../../contracts/typedData';
import { InvalidForgeIdError, InvalidForgePathError, InvalidZenAmountError } from '../errors';

const MAX_UINT256 = 2n ** 256n - 1n;
const DECIMAL = /^[0-9]+$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/** Parses a forge path: an integer 0..4 (SPEC 2.5: uint8 forge path, five paths). */
export function parseForgePath(value: unknown, path = 'path'): ForgePath {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidForgePathError(path, 'must be an integer');
  }
  if (value < 0 || value >= FORGE_PATH_COUNT) {
    throw new InvalidForgePathError(path, `must be between 0 and ${FORGE_PATH_COUNT - 1}`);
  }
  return value as ForgePath;
}

/**
 * Parses zenCommitted: a decimal string (no sign, exponent or leading zeros) of a positive amount that fits in
 * uint256, in the currency's smallest unit.
 */
export function parseZenCommitted(value: unknown, path = 'zenCommitted'): bigint {
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    throw new InvalidZenAmountError(path, 'must be a decimal string of digits');
  }
  if (value.length > 1 && value.startsWith('0'))
    throw new InvalidZenAmountError(path, 'must not have leading zeros');
  const amount = BigInt(value);
  if (amount === 0n) throw new InvalidZenAmountError(path, 'must be positive');
  if (amount > MAX_UINT256) throw new InvalidZenAmountError(path, 'must fit in uint256');
  return amount;
}

/** Parses a forgeId: 0x and 64 hex digits. Returns it lowercased. */
export function parseForgeId(value: unknown, path = 'forgeId'): string {
  if (typeof value !== 'string' || !BYTES32.test(value)) {
    throw new InvalidForgeIdError(path, 'must be 0x followed by 64 hex digits');
  }
  return value.toLowerCase();
}
