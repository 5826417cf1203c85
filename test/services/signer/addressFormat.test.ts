import { parseAddress } from '../../../services/signer/addressFormat';
import { InvalidAddressError } from '../../../services/signer/errors';

const CHECKSUMMED = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

function rejection(value: unknown, path?: string): InvalidAddressError {
  try {
    parseAddress(value, path);
  } catch (error) {
    if (error instanceof InvalidAddressError) return error;
    throw error;
  }
  throw new Error(`${String(value)} was accepted`);
}

describe('parseAddress', () => {
  it('accepts the EIP-55 checksummed form and returns it unchanged', () => {
    expect(parseAddress(CHECKSUMMED)).toBe(CHECKSUMMED);
  });

  it('accepts the all-lowercase form and returns it checksummed', () => {
    expect(parseAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
  });

  it('rejects mixed case with a bad checksum as a 400 with a stable code and the failing path', () => {
    const error = rejection('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'body.forger');
    expect([error.status, error.code, error.message, error.errors]).toEqual([
      400,
      'SIGNER_INVALID_ADDRESS',
      'body.forger: mixed-case address with an invalid EIP-55 checksum',
      [{ path: 'body.forger', message: 'mixed-case address with an invalid EIP-55 checksum' }],
    ]);
  });

  it('rejects an all-uppercase body that is not the checksum', () => {
    expect(rejection(`0x${CHECKSUMMED.slice(2).toUpperCase()}`).message).toBe(
      'address: must be EIP-55 checksummed or all lowercase',
    );
  });

  it.each([
    ['too short', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beae'],
    ['too long', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed0'],
    ['no 0x prefix', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['upper-case prefix', '0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
    ['non-hex digit', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg'],
    ['ENS name', 'vitalik.eth'],
  ])('rejects %s', (_label, value) => {
    expect(rejection(value).message).toBe('address: must be 0x followed by 40 hex digits');
  });

  it('rejects non-strings', () => {
    expect(rejection(42).message).toBe('address: must be a string');
  });
});
