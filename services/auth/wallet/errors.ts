import { errorFactory, type AppError } from '../../../platform/errors';

/**
 * Every code wallet sign-in (SIWE) answers with, mapped to its status in one place. A rejected proof is always 401
 * with the code of the check that failed (SPEC 7 diagnostics); 501 while wallet sign-in is off; 503 when the
 * Ethereum RPC cannot check a contract wallet.
 */
export const SIWE_ERRORS = {
  SIWE_MESSAGE_INVALID: { status: 401, title: 'Unauthorized' },
  SIWE_NONCE_MISMATCH: { status: 401, title: 'Unauthorized' },
  SIWE_ADDRESS_MISMATCH: { status: 401, title: 'Unauthorized' },
  SIWE_DOMAIN_MISMATCH: { status: 401, title: 'Unauthorized' },
  SIWE_CHAIN_MISMATCH: { status: 401, title: 'Unauthorized' },
  SIWE_MESSAGE_EXPIRED: { status: 401, title: 'Unauthorized' },
  SIWE_MESSAGE_NOT_YET_VALID: { status: 401, title: 'Unauthorized' },
  SIWE_SIGNATURE_INVALID: { status: 401, title: 'Unauthorized' },
  SIWE_NONCE_REPLAYED: { status: 401, title: 'Unauthorized' },
  SIWE_NONCE_UNKNOWN: { status: 401, title: 'Unauthorized' },
  SIWE_DISABLED: { status: 501, title: 'Not Implemented' },
  ETH_RPC_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

/** One of the wallet sign-in codes. */
export type SiweErrorCode = keyof typeof SIWE_ERRORS;

/** The codes of a rejected proof: the ones answered with 401. */
export type SiweRejectionCode = {
  [Code in SiweErrorCode]: (typeof SIWE_ERRORS)[Code]['status'] extends 401 ? Code : never;
}[SiweErrorCode];

/** `siweError('CODE', detail)`: a wallet sign-in error, its status and title from SIWE_ERRORS. */
export const siweError = errorFactory(SIWE_ERRORS);

/** A rejected wallet sign-in: always 401, with the code naming the failed check. */
export function walletSignInError(code: SiweRejectionCode, detail: string): AppError {
  return siweError(code, detail);
}
