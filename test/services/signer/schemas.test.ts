import { AppError } from '../../../../platform/errors';
import {
  parseForgeId,
  parseForgePath,
  parseZenCommitted,
} from '../../../../services/signer/issuing/forgeInputs';

function failure(parse: () => unknown): { code: string; message: string } {
  try {
    parse();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('input was accepted');
}

describe('parseForgePath', () => {
  it('accepts the five paths 0..4', () => {
    expect([0, 1, 2, 3, 4].map((path) => parseForgePath(path))).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    [5, 'path: must be between 0 and 4'],
    [-1, 'path: must be between 0 and 4'],
    [1.5, 'path: must be an integer'],
    ['1', 'path: must be an integer'],
  ])('rejects %p', (value, message) => {
    expect(failure(() => parseForgePath(value))).toEqual({ code: 'SIGNER_INVALID_FORGE_PATH', message });
  });
});

describe('parseZenCommitted', () => {
  it('accepts positive decimal strings up to 2^256 - 1', () => {
    expect(parseZenCommitted('1')).toBe(1n);
    expect(parseZenCommitted('1000000000000000000')).toBe(10n ** 18n);
    expect(parseZenCommitted((2n ** 256n - 1n).toString())).toBe(2n ** 256n - 1n);
  });

  it.each([
    ['0', 'zenCommitted: must be positive'],
    [(2n ** 256n).toString(), 'zenCommitted: must fit in uint256'],
    ['007', 'zenCommitted: must not have leading zeros'],
    ['-5', 'zenCommitted: must be a decimal string of digits'],
    ['1e18', 'zenCommitted: must be a decimal string of digits'],
    ['0x10', 'zenCommitted: must be a decimal string of digits'],
    ['', 'zenCommitted: must be a decimal string of digits'],
    [100, 'zenCommitted: must be a decimal string of digits'],
  ])('rejects %p', (value, message) => {
    expect(failure(() => parseZenCommitted(value))).toEqual({ code: 'SIGNER_INVALID_ZEN_AMOUNT', message });
  });
});

describe('parseForgeId', () => {
  it('accepts 32-byte hex and lowercases it', () => {
    expect(parseForgeId(`0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
  });

  it.each([`0x${'ab'.repeat(31)}`, 'ab'.repeat(32), 12])('rejects %p', (value) => {
    expect(failure(() => parseForgeId(value))).toEqual({
      code: 'SIGNER_INVALID_FORGE_ID',
      message: 'forgeId: must be 0x followed by 64 hex digits',
    });
  });
});
