import {
  AppError,
  ConflictError,
  DependencyUnavailableError,
  ForbiddenError,
  NotEnabledError,
  NotFoundError,
  RateLimitedError,
  UnavailableError,
  ValidationError,
} from '../../platform/errors';

/** Stable error codes of the signer service. */
export const SIGNER_ERROR_CODES = {
  invalidAddress: 'SIGNER_INVALID_ADDRESS',
  forgeNotFound: 'SIGNER_FORGE_NOT_FOUND',
  forgeNotOwned: 'SIGNER_FORGE_NOT_OWNED',
  forgeAlreadyClaimed: 'SIGNER_FORGE_ALREADY_CLAIMED',
  keyUnavailable: 'SIGNER_KEY_UNAVAILABLE',
  signerMismatch: 'SIGNER_ADDRESS_MISMATCH',
  chainUnavailable: 'SIGNER_CHAIN_UNAVAILABLE',
  misconfigured: 'SIGNER_MISCONFIGURED',
  nonceStale: 'SIGNER_NONCE_STALE',
  rateLimited: 'SIGNER_RATE_LIMITED',
  forgeCooldown: 'SIGNER_FORGE_COOLDOWN',
  insufficientBalance: 'SIGNER_INSUFFICIENT_BALANCE',
  addressNotOwned: 'SIGNER_ADDRESS_NOT_OWNED',
  disabled: 'SIGNER_DISABLED',
  signatureUnknown: 'SIGNER_SIGNATURE_UNKNOWN',
  signatureNotUsed: 'SIGNER_SIGNATURE_NOT_USED',
} as const;

/**
 * 400: an address that is neither EIP-55 checksummed nor all lowercase, or mixed case with a bad checksum. Raised by
 * `addressFormat.ts` for the configured contract addresses; request bodies are checked by the HTTP schemas.
 */
export class InvalidAddressError extends ValidationError {
  constructor(path: string, message: string) {
    super(`${path}: ${message}`, [{ path, message }], SIGNER_ERROR_CODES.invalidAddress);
  }
}

/** 404: no forge with this id on chain (not started, or the start transaction is not mined yet). */
export class ForgeNotFoundError extends NotFoundError {
  constructor(forgeId: string) {
    super(`No forge ${forgeId} on chain`, SIGNER_ERROR_CODES.forgeNotFound);
  }
}

/** 403: the forge exists but belongs to another forger. */
export class ForgeNotOwnedError extends ForbiddenError {
  constructor(forgeId: string) {
    super(`Forge ${forgeId} belongs to another forger`, SIGNER_ERROR_CODES.forgeNotOwned);
  }
}

/** 409: the forge was already claimed. */
export class ForgeAlreadyClaimedError extends ConflictError {
  constructor(forgeId: string) {
    super(`Forge ${forgeId} is already claimed`, SIGNER_ERROR_CODES.forgeAlreadyClaimed, { forgeId });
  }
}

/** 503: no signing key could be loaded for the chain (the message never contains key material). */
export class SignerKeyUnavailableError extends UnavailableError {
  constructor(chainId: number, reason: string, cause?: unknown) {
    super(`No signing key for chain ${chainId}: ${reason}`, SIGNER_ERROR_CODES.keyUnavailable, { chainId });
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
  }
}

/**
 * 503: the chain's JSON-RPC endpoint failed while reading a nonce, block or forge. The body names the operation
 * only; the cause (whose text carries the RPC URL) is kept for the log.
 */
export class ChainUnavailableError extends DependencyUnavailableError {
  constructor(operation: string, cause: unknown) {
    super(`The chain's JSON-RPC endpoint (${operation})`, SIGNER_ERROR_CODES.chainUnavailable, cause);
  }
}

/**
 * The contract expects another signer than the configured key. Raised at start-up; the signer must not start,
 * since every signature it issued would revert with InvalidSignature.
 */
export class SignerMismatchError extends AppError {
  readonly expected: string;
  readonly actual: string;

  constructor(contractName: string, chainId: number, expected: string, actual: string) {
    super(503, SIGNER_ERROR_CODES.signerMismatch, 'Signer misconfigured', {
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
    super(500, SIGNER_ERROR_CODES.misconfigured, 'Signer misconfigured', { detail });
  }
}

/** 503: the store shows the chain's current nonce as consumed even after a fresh read (node lagging behind). */
export class NonceStaleError extends UnavailableError {
  constructor(requester: string, nonce: bigint) {
    super(
      `Nonce ${nonce} of ${requester} is already consumed but the chain still reports it; retry shortly`,
      SIGNER_ERROR_CODES.nonceStale,
      { retryable: true },
    );
  }
}

/** 429: more than the allowed signature requests per address in the window (SPEC 5: 10 per minute). */
export class SignatureRateLimitedError extends RateLimitedError {
  constructor(retryAfterSeconds: number, limit: number, windowSeconds: number) {
    super(
      retryAfterSeconds,
      `At most ${limit} signature requests per ${windowSeconds} s per address`,
      SIGNER_ERROR_CODES.rateLimited,
    );
  }
}

/** 429: the forger started a forge too recently (SPEC 4.10 rule 4). */
export class ForgeCooldownError extends RateLimitedError {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds, 'Forge cooldown in effect for this forger', SIGNER_ERROR_CODES.forgeCooldown);
  }
}

/** 409: the off-chain soft-currency balance does not cover zenCommitted (SPEC 4.10 rule 3). */
export class InsufficientBalanceError extends ConflictError {
  constructor(balance: bigint, required: bigint) {
    super(`Balance ${balance} is below the ${required} committed`, SIGNER_ERROR_CODES.insufficientBalance, {
      balance: balance.toString(),
      required: required.toString(),
    });
  }
}

/** 403: a signed-in user asked for a signature for a wallet that is not linked to their account. */
export class AddressNotOwnedError extends ForbiddenError {
  constructor(address: string) {
    super(
      `Signatures are issued only for your own wallets; ${address} is not linked to your account (sign in with it first)`,
      SIGNER_ERROR_CODES.addressNotOwned,
    );
  }
}

/** 501: signature issuing is not configured on this server (SIGNER_CHAIN_ID unset). */
export class SignerDisabledError extends NotEnabledError {
  constructor() {
    super(
      'Signature issuing is not configured on this server (SIGNER_CHAIN_ID is unset)',
      SIGNER_ERROR_CODES.disabled,
    );
  }
}

/** 404: a reported signature this signer did not issue (for its chain and contracts). */
export class SignatureUnknownError extends NotFoundError {
  constructor() {
    super('This signer has not issued that signature', SIGNER_ERROR_CODES.signatureUnknown);
  }
}

/** 409: a reported SignatureAlreadyUsed that the contract does not confirm. */
export class SignatureNotUsedError extends ConflictError {
  constructor() {
    super(
      'The contract has not consumed this signature, so the revert was not SignatureAlreadyUsed',
      SIGNER_ERROR_CODES.signatureNotUsed,
    );
  }
}

/** 503: the signer is stopped because its check failed; the code and detail are the failed check's. */
export class SignerStoppedError extends UnavailableError {
  /** Why the check failed, as its error said. */
  readonly reason: string;

  constructor(cause: unknown) {
    const appError = cause instanceof AppError ? cause : undefined;
    // Only an AppError's detail is written for callers; any other error's text stays in the log.
    const reason = appError?.detail ?? 'its start-up check failed';
    super(
      `The signer is stopped: ${reason}`,
      appError?.code ?? SIGNER_ERROR_CODES.chainUnavailable,
      appError?.extensions,
    );
    Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
    this.reason = reason;
  }
}
