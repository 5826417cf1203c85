import { Wallet } from 'ethers';
import {
  ForgeClaimRequestSchema,
  ForgeStartRequestSchema,
  PunkSeedMintRequestSchema,
} from '../../../services/signer/schemas';

const FORGER = new Wallet(`0x${'11'.repeat(32)}`).address;
const FORGE_ID = `0x${'ab'.repeat(32)}`;
const TYPE_ERROR = expect.stringMatching(/^Invalid input: expected/);

/** The issues of a rejected body as `[path, message]` pairs (what 400 VALIDATION_FAILED lists). */
function issues(schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, body: unknown) {
  const result = schema.safeParse(body) as {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
  if (result.success) throw new Error('input was accepted');
  return result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]);
}

describe('forge start request: validated once, parsed for the command', () => {
  const start = (fields: Record<string, unknown>) => ({
    forger: FORGER,
    path: 0,
    zenCommitted: '1',
    ...fields,
  });

  it('accepts the five paths 0..4 and positive decimal strings up to 2^256 - 1, parsed to a bigint', () => {
    expect([0, 1, 2, 3, 4].map((path) => ForgeStartRequestSchema.parse(start({ path })).path)).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(ForgeStartRequestSchema.parse(start({ zenCommitted: '1' })).zenCommitted).toBe(1n);
    expect(ForgeStartRequestSchema.parse(start({ zenCommitted: '1000000000000000000' })).zenCommitted).toBe(
      10n ** 18n,
    );
    const max = (2n ** 256n - 1n).toString();
    expect(ForgeStartRequestSchema.parse(start({ zenCommitted: max })).zenCommitted).toBe(2n ** 256n - 1n);
  });

  it('checksums the forger, whichever accepted form it came in', () => {
    expect(ForgeStartRequestSchema.parse(start({ forger: FORGER.toLowerCase() })).forger).toBe(FORGER);
  });

  it.each([5, -1, 1.5])('rejects path %p', (path) => {
    expect(issues(ForgeStartRequestSchema, start({ path }))).toEqual([['path', 'expected an integer 0-4']]);
  });

  it('rejects a path sent as a string', () => {
    expect(issues(ForgeStartRequestSchema, start({ path: '1' }))).toEqual([
      ['path', 'expected an integer 0-4'],
    ]);
  });

  it.each(['0', '007', '-5', '1e18', '0x10', ''])('rejects zenCommitted %p', (zenCommitted) => {
    expect(issues(ForgeStartRequestSchema, start({ zenCommitted }))).toEqual([
      [
        'zenCommitted',
        'expected a positive decimal integer (digits only, no sign, exponent or leading zeros)',
      ],
    ]);
  });

  it('rejects zenCommitted over uint256 and a number instead of a string', () => {
    expect(issues(ForgeStartRequestSchema, start({ zenCommitted: (2n ** 256n).toString() }))).toEqual([
      ['zenCommitted', 'must fit in uint256'],
    ]);
    expect(issues(ForgeStartRequestSchema, start({ zenCommitted: 100 }))).toEqual([
      ['zenCommitted', TYPE_ERROR],
    ]);
  });
});

describe('forge claim and mint requests', () => {
  it('lowercases the forgeId and checksums the forger', () => {
    expect(
      ForgeClaimRequestSchema.parse({ forgeId: FORGE_ID.toUpperCase().replace('0X', '0x'), forger: FORGER }),
    ).toEqual({ forgeId: FORGE_ID, forger: FORGER });
    expect(PunkSeedMintRequestSchema.parse({ address: FORGER.toLowerCase() })).toEqual({ address: FORGER });
  });

  it.each([`0x${'ab'.repeat(31)}`, 'ab'.repeat(32)])('rejects forgeId %p', (forgeId) => {
    expect(issues(ForgeClaimRequestSchema, { forgeId, forger: FORGER })).toEqual([
      ['forgeId', 'expected 0x followed by 64 hex digits'],
    ]);
  });

  it('rejects a forgeId that is not a string', () => {
    expect(issues(ForgeClaimRequestSchema, { forgeId: 12, forger: FORGER })).toEqual([
      ['forgeId', TYPE_ERROR],
    ]);
  });
});
