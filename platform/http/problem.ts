import type { Request, Response } from 'express';
import { AppError, MalformedPathError, type FieldError } from '../errors';
import { MAX_JSON_DEPTH } from './jsonBody';

/** RFC 9457 problem details, with the platform's `code`, `requestId` and optional `errors[]` members. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  requestId?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Problem `type` URI for a code: a relative reference, `/problems/<kebab-code>`, documented in the README. */
export function problemType(code: string): string {
  return `/problems/${code.toLowerCase().replace(/_/g, '-')}`;
}

interface HttpLikeError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

/** Errors raised by express.json (body-parser) carry a `type`; map them to stable codes. */
const BODY_PARSER_ERRORS: Record<string, () => AppError> = {
  'entity.parse.failed': () =>
    new AppError(400, 'MALFORMED_JSON', 'Malformed JSON', { detail: 'The request body is not valid JSON' }),
  'entity.too.large': () =>
    new AppError(413, 'PAYLOAD_TOO_LARGE', 'Payload Too Large', {
      detail: 'The request body exceeds the size limit',
    }),
  'encoding.unsupported': () =>
    new AppError(415, 'UNSUPPORTED_ENCODING', 'Unsupported Media Type', {
      detail: 'The request body encoding is not supported',
    }),
  'charset.unsupported': () =>
    new AppError(415, 'UNSUPPORTED_CHARSET', 'Unsupported Media Type', {
      detail: 'The request body charset is not supported',
    }),
  'entity.too.deep': () =>
    new AppError(400, 'JSON_TOO_DEEP', 'Bad Request', {
      detail: `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
    }),
  'request.aborted': () =>
    new AppError(400, 'REQUEST_ABORTED', 'Bad Request', { detail: 'The request was aborted' }),
};

/**
 * Normalises anything thrown into an AppError. Unknown errors become a 500 whose body says nothing about the
 * cause; `internal` is true for every 500 (a fault: the caller logs the original at error), false for deliberate
 * answers such as a 503 for an unavailable dependency (logged at warn).
 */
export function toAppError(error: unknown): { appError: AppError; internal: boolean } {
  if (error instanceof AppError) return { appError: error, internal: error.status === 500 };
  // Express's router throws a URIError (status 400) for a path parameter that is not valid percent-encoding.
  if (error instanceof URIError) return { appError: new MalformedPathError(), internal: false };
  const httpError = (error ?? {}) as HttpLikeError;
  const mapped = httpError.type ? BODY_PARSER_ERRORS[httpError.type] : undefined;
  if (mapped) return { appError: mapped(), internal: false };
  const status = httpError.status ?? httpError.statusCode;
  if (status && status >= 400 && status < 500 && httpError.expose) {
    return {
      appError: new AppError(status, 'BAD_REQUEST', 'Bad Request', { detail: httpError.message }),
      internal: false,
    };
  }
  return {
    appError: new AppError(500, 'INTERNAL_ERROR', 'Internal Server Error', {
      detail: 'An unexpected error occurred. Quote the request id when reporting it.',
    }),
    internal: true,
  };
}

/** Builds the problem body for an AppError in the context of a request. */
export function problemBody(error: AppError, req: Request): ProblemBody {
  return {
    ...error.extensions,
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    instance: req.originalUrl,
    code: error.code,
    requestId: req.id === undefined ? undefined : String(req.id),
    ...(error.errors === undefined ? {} : { errors: error.errors }),
  };
}

/** Writes an AppError as `application/problem+json` with its headers. */
export function sendProblem(req: Request, res: Response, error: AppError): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res
    .status(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(problemBody(error, req)));
}
