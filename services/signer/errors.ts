import { AppError, UnavailableError, errorFactory, retryAfter } from '../../platform/errors';

/** Every code the signer answers with, and how each answers, in one place. */
export const SIGNER_ERRORS = {
  SIGNER_INVALID_ADDRESS: { status: 400, title: 'Invalid request' },
  SIGNER_FORGE_NOT_FOUND: { status: 404, title: 'Not Found' },
  SIGNER_FORGE_NOT_OWNED: { status: 403, title: 'Forbidden' },
  SIGNER_FORGE_ALREADY_CLAIMED: { status: 409, title: 'Conflict' },
  SIGNER_KEY_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  SIGNER_ADDRESS_MISMATCH: { status: 503, title: 'Signer misconfigured' },
  SIGNER_CHAIN_UNAVAILABLE: { status: 503, title: 'Service Unavailable' },
  SIGNER_MISCONFIGURED: { status: 500, title: 'Signer misconfigured' },
  SIGNER_NONCE_STALE: { status: 503, title: 'Service Unavailable' },
  SIGNER_RATE_LIMITED: { status: 429, title: 'Too Many Requests' },
  SIGNER_FORGE_COOLDOWN: { status: 429, title: 'Too Many Requests' },
  SIGNER_INSUFFICIENT_BALANCE: { status: 409, title: 'Conflict' },
  SIGNER_ADDRESS_NOT_OWNED: { status: 403, title: 'Forbidden' },
  SIGNER_DISABLED: { status: 501, title: 'Not Implemented' },
  SIGNER_SIGNATURE_UNKNOWN: { status: 404, title: 'Not Found' },
  SIGNER_SIGNATURE_NOT_USED: { status: 409, title: 'Conflict' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Unsupported Media Type' },
} as const;

/** One of the signer's codes. */
export type SignerErrorCode = keyof typeof SIGNER_ERRORS;

/** `signerError('CODE', detail)`: the AppError that code answers with. */
export const signerError = errorFactory(SIGNER_ERRORS);

/** Keeps `cause` for the log without making it part of what a response or a JSON dump shows. */
function withHiddenCause(error: AppError, cause: unknown): AppError {
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}

/**
 * 400: an address that is neither EIP-55 checksummed nor all lowercase, or mixed case with a bad checksum. Raised by
 * `addressFormat.ts` for the configured contract addresses; request bodies are checked by the HTTP schemas. A class,
 * so configuration checks can tell it from other failures.
 */
export class InvalidAddressError extends AppError {
  constructor(path: string, message: string) {
    const { status, title } = SIGNER_ERRORS.SIGNER_INVALID_ADDRESS;
    super(status, 'SIGNER_INVALID_ADDRESS', title, {
      detail: `${path}: ${message}`,
      errors: [{ path, message }],
    });
  }
}

/** 404: no forge with this id on chain (not started, or the start transaction is not mined yet). */
export function forgeNotFound(forgeId: string): AppError {
  return signerError('SIGNER_FORGE_NOT_FOUND', `No forge ${forgeId} on chain`);
}

/** 403: the forge exists but belongs to another forger. */
export function forgeNotOwned(forgeId: string): AppError {
  return signerError('SIGNER_FORGE_NOT_OWNED', `Forge ${forgeId} belongs to another forger`);
}

/** 409: the forge was already claimed. */
export function forgeAlreadyClaimed(forgeId: string): AppError {
  return signerError('SIGNER_FORGE_ALREADY_CLAIMED', `Forge ${forgeId} is already claimed`, {
    extensions: { forgeId },
  });
}

/** 503: no signing key could be loaded for the chain (the message never contains key material). */
export function signerKeyUnavailable(chainId: number, reason: string, cause?: unknown): AppError {
  const error = signerError('SIGNER_KEY_UNAVAILABLE', `No signing key for chain ${chainId}: ${reason}`, {
    extensions: { chainId },
  });
  return withHiddenCause(error, cause);
}

/**
 * 503: the chain's JSON-RPC endpoint failed while reading a nonce, block or forge. The body names the operation
 * only; the cause (whose text carries the RPC URL) is kept for the log.
 */
export function chainUnavailable(operation: string, cause: unknown): AppError {
  const dependency = `The chain's JSON-RPC endpoint (${operation})`;
  const error = signerError('SIGNER_CHAIN_UNAVAILABLE', `${dependency} is unavailable; retry later`);
  return withHiddenCause(error, cause);
}

/**
 * The contract expects another signer than the configured key. Raised at start-up; the signer must not start,
 * since every signature it issued would revert with InvalidSignature.
 */
export class SignerMismatchError extends AppError {
  readonly expected: string;
  readonly actual: string;

  constructor(contractName: string, chainId: number, expected: string, actual: string) {
    const { status, title } = SIGNER_ERRORS.SIGNER_ADDRESS_MISMATCH;
    super(status, 'SIGNER_ADDRESS_MISMATCH', title, {
      detail:
        `${contractName} on chain ${chainId} expects signer ${expected}, but the configured key is ${actual}; ` +
        'fix the key configuration or rotate the contract signer (setSigner)',
      extensions: { contractName, chainId, expected, actual },
    });
    this.expected = expected;
    this.actual = actual;
  }
}

/** Invalid signer configuration (buffer out of range, shared key across chains, unsupported chain id). */
export class SignerConfigError extends AppError {
  constructor(detail: string) {
    const { status, title } = SIGNER_ERRORS.SIGNER_MISCONFIGURED;
    super(status, 'SIGNER_MISCONFIGURED', title, { detail });
  }
}

/** 503: the store shows the chain's current nonce as consumed even after a fresh read (node lagging behind). */
export function nonceStale(requester: string, nonce: bigint): AppError {
  return signerError(
    'SIGNER_NONCE_STALE',
    `Nonce ${nonce} of ${requester} is already consumed but the chain still reports it; retry shortly`,
    { extensions: { retryable: true } },
  );
}

/** 429: more than the allowed signature requests per address in the window (SPEC 5: 10 per minute). */
export function signatureRateLimited(
  retryAfterSeconds: number,
  limit: number,
  windowSeconds: number,
): AppError {
  return signerError(
    'SIGNER_RATE_LIMITED',
    `At most ${limit} signature requests per ${windowSeconds} s per address`,
    retryAfter(retryAfterSeconds),
  );
}

/** 429: the forger started a forge too recently (SPEC 4.10 rule 4). */
export function forgeCooldown(retryAfterSeconds: number): AppError {
  return signerError(
    'SIGNER_FORGE_COOLDOWN',
    'Forge cooldown in effect for this forger',
    retryAfter(retryAfterSeconds),
  );
}

/** 409: the off-chain soft-currency balance does not cover zenCommitted (SPEC 4.10 rule 3). */
export function insufficientBalance(balance: bigint, required: bigint): AppError {
  return signerError('SIGNER_INSUFFICIENT_BALANCE', `Balance ${balance} is below the ${required} committed`, {
    extensions: { balance: balance.toString(), required: required.toString() },
  });
}

/** 403: a signed-in user asked for a signature for a wallet that is not linked to their account. */
export function addressNotOwned(address: string): AppError {
  return signerError(
    'SIGNER_ADDRESS_NOT_OWNED',
    `Signatures are issued only for your own wallets; ${address} is not linked to your account (sign in with it first)`,
  );
}

/** 501: signature issuing is not configured on this server (SIGNER_CHAIN_ID unset). */
export function signerDisabled(): AppError {
  return signerError(
    'SIGNER_DISABLED',
    'Signature issuing is not configured on this server (SIGNER_CHAIN_ID is unset)',
  );
}

/** 404: a reported signature this signer did not issue (for its chain and contracts). */
export function signatureUnknown(): AppError {
  return signerError('SIGNER_SIGNATURE_UNKNOWN', 'This signer has not issued that signature');
}

/** 409: a reported SignatureAlreadyUsed that the contract does not confirm. */
export function signatureNotUsed(): AppError {
  return signerError(
    'SIGNER_SIGNATURE_NOT_USED',
    'The contract has not consumed this signature, so the revert was not SignatureAlreadyUsed',
  );
}

/**
 * 503: the signer is stopped because its check failed; the code and detail are the failed check's (a catalogue code:
 * every check fails with one of the signer's errors or SIGNER_CHAIN_UNAVAILABLE).
 */
export class SignerStoppedError extends UnavailableError {
  /** Why the check failed, as its error said. */
  readonly reason: string;

  constructor(cause: unknown) {
    const appError = cause instanceof AppError ? cause : undefined;
    // Only an AppError's detail is written for callers; any other error's text stays in the log.
    const reason = appError?.detail ?? 'its start-up check failed';
    super(
      `The signer is stopped: ${reason}`,
      appError?.code ?? 'SIGNER_CHAIN_UNAVAILABLE',
      appError?.extensions,
    );
    Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
    this.reason = reason;
  }
}
