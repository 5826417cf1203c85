/**
 * Application errors. Each carries a stable machine `code` and an HTTP `status`; the HTTP layer turns any of
 * them into an RFC 9457 problem body (see platform/http/problem.ts). Throw them from domain code; never answer
 * "empty" on failure.
 */

/** One failing input location, reported in the problem body's `errors[]`. */
export interface FieldError {
  /** Dotted path of the failing field, e.g. `body.address` or `query.limit`. */
  path: string;
  message: string;
}

export interface AppErrorOptions {
  detail?: string;
  errors?: FieldError[];
  /** Extra members copied into the problem body (must not contain secrets). */
  extensions?: Record<string, unknown>;
  /** Response headers to set, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** Base class: `status` and `code` decide the response; `title` is the short human summary. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly extensions?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: string, title: string, options: AppErrorOptions = {}) {
    super(options.detail ?? title, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.extensions = options.extensions;
    this.headers = options.headers;
  }
}

/** 400: the request is malformed or fails validation. */
export class ValidationError extends AppError {
  constructor(detail: string, errors: FieldError[] = [], code = 'VALIDATION_FAILED') {
    super(400, code, 'Invalid request', { detail, errors });
  }
}

/** 401: no credential, or the credential is not valid. */
export class UnauthorizedError extends AppError {
  constructor(detail = 'Authentication required', code = 'UNAUTHENTICATED') {
    super(401, code, 'Unauthorized', { detail, headers: { 'WWW-Authenticate': 'Bearer' } });
  }
}

/** 403: authenticated, but not allowed to do this. */
export class ForbiddenError extends AppError {
  constructor(detail = 'Not allowed', code = 'FORBIDDEN') {
    super(403, code, 'Forbidden', { detail });
  }
}

/** 404: the addressed resource does not exist. */
export class NotFoundError extends AppError {
  constructor(detail = 'Not found', code = 'NOT_FOUND') {
    super(404, code, 'Not Found', { detail });
  }
}

/** 409: the request conflicts with the current state (duplicate, wrong state for the action). */
export class ConflictError extends AppError {
  constructor(detail: string, code = 'CONFLICT', extensions?: Record<string, unknown>) {
    super(409, code, 'Conflict', { detail, extensions });
  }
}

/** 429: a rate limit or cooldown was hit; `retryAfterSeconds` becomes the `Retry-After` header. */
export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests', code = 'RATE_LIMITED') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, code, 'Too Many Requests', {
      detail,
      headers: { 'Retry-After': String(seconds) },
      extensions: { retryAfter: seconds },
    });
  }
}

/** 501: the feature is switched off by configuration (e.g. SIWE_ENABLED=0). */
export class NotEnabledError extends AppError {
  constructor(detail: string, code = 'NOT_ENABLED') {
    super(501, code, 'Not Implemented', { detail });
  }
}

/** 503: a dependency (store, provider) is unavailable. */
export class UnavailableError extends AppError {
  constructor(detail: string, code = 'UNAVAILABLE', extensions?: Record<string, unknown>, cause?: unknown) {
    super(503, code, 'Service Unavailable', { detail, extensions, cause });
  }
}

/**
 * 503 for a failed call to a dependency (store, JSON-RPC node, identity or embedding provider): the one place a
 * provider failure becomes a response. The body says only which dependency is unavailable; the cause (whose text may
 * carry the provider's URL, API key, host and port) is kept as the non-enumerable `cause` for the log, where URLs
 * are redacted (platform/logger.ts).
 */
export class DependencyUnavailableError extends UnavailableError {
  constructor(dependency: string, code: string, cause?: unknown, extensions?: Record<string, unknown>) {
    super(`${dependency} is unavailable; retry later`, code, extensions);
    if (cause !== undefined) Object.defineProperty(this, 'cause', { value: cause, enumerable: false });
  }
}

/** 400: a path segment is not valid percent-encoding (`%ZZ`, an overlong UTF-8 sequence such as `%C0%AE`). */
export class MalformedPathError extends AppError {
  constructor() {
    super(400, 'MALFORMED_PATH', 'Bad Request', { detail: 'The request path is not valid percent-encoding' });
  }
}

/** Decodes one percent-encoded path segment; malformed encoding is a 400 MALFORMED_PATH, never a 500. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MalformedPathError();
  }
}

/** How one code of an area's error catalogue answers: status, title and any fixed headers. */
export interface CatalogueEntry {
  status: number;
  title: string;
  headers?: Record<string, string>;
}

/** An area's error catalogue (`services/<area>/errors.ts`): each stable code mapped to its answer, in one place. */
export type ErrorCatalogue = Record<string, CatalogueEntry>;

/**
 * The error factory of a catalogue: `fail('CODE', detail)` is the AppError that code answers with. Headers given
 * in `options` add to (or override) the entry's own.
 */
export function errorFactory<C extends ErrorCatalogue>(catalogue: C) {
  return (
    code: keyof C & string,
    detail: string,
    options: Omit<AppErrorOptions, 'detail'> = {},
  ): AppError => {
    const { status, title, headers } = catalogue[code];
    const merged = headers || options.headers ? { ...headers, ...options.headers } : undefined;
    return new AppError(status, code, title, { ...options, detail, headers: merged });
  };
}

/** The `Retry-After` header and `retryAfter` member of a 429, in whole seconds (at least 1). */
export function retryAfter(seconds: number): Pick<AppErrorOptions, 'headers' | 'extensions'> {
  const whole = Math.max(1, Math.ceil(seconds));
  return { headers: { 'Retry-After': String(whole) }, extensions: { retryAfter: whole } };
}
