import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import { OpenApiValidator, type OpenApiDocument } from './openapiValidator';

/** The committed document (`npm run client:generate` writes it beside the client types from the live routes). */
export const DOCUMENT_FILE = path.join(__dirname, '../../clients/api/generated/openapi.json');

const PROBLEM_TYPE = 'application/problem+json';

/** One answer as the check sees it. */
export interface Answer {
  method: string;
  /** The request's URL (absolute or a path); only its path is read. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (supertest's `res.body`), or the text for other media types. */
  body: unknown;
}

/**
 * Answers outside the contract on purpose, each with its reason. Anything else the platform answers must be declared
 * in the document for its operation and status and match the declared schema.
 */
export const OUTSIDE_THE_CONTRACT: { method: string; path: RegExp; reason: string }[] = [
  {
    method: 'GET',
    path: /^\/openapi\.json$/,
    reason: 'the document itself: its shape is the OpenAPI 3.1 schema, checked by openapiContract.test.ts',
  },
  {
    method: 'GET',
    path: /^\/colyseus(\/|$)/,
    reason: "the game role's Colyseus monitor (its own HTML and JSON for operators, behind the admin guard)",
  },
  {
    method: 'POST',
    path: /^\/matchmake\//,
    reason:
      "Colyseus matchmaking: the SDK's own protocol, documented by Colyseus, not a REST operation of ours",
  },
  {
    method: 'GET',
    path: /^\/(index\.html|app\.js|style\.css)?$/,
    reason:
      'the built web client (services/web: index.html, app.js, style.css at `/`): pages for browsers, not API operations',
  },
  {
    method: 'OPTIONS',
    path: /.*/,
    reason:
      'CORS preflights are answered by the cors middleware for every path; OpenAPI describes no preflight',
  },
];

const byDocument = new Map<string, ResponseContract>();
/** The document each running test platform publishes, by its origin (`http://127.0.0.1:40123`). */
const published = new Map<string, ResponseContract>();

/**
 * Records the document a platform started by a test publishes at `origin`: its answers are checked against that
 * document (its own routes, as its configuration composed them) rather than the product's committed one.
 */
export function registerPublishedDocument(origin: string, documentText: string): void {
  published.set(new URL(origin).origin, ResponseContract.of(documentText));
}

export function unregisterPublishedDocument(origin: string): void {
  published.delete(new URL(origin).origin);
}

/** The checker for an answer from `url`: the document its platform published, else the committed product one. */
export function contractFor(url: string): ResponseContract {
  const origin = URL.canParse(url) ? new URL(url).origin : '';
  return published.get(origin) ?? (committed ??= ResponseContract.fromCommittedDocument());
}
let committed: ResponseContract | undefined;

interface Operation {
  template: string;
  segments: string[];
  /** Literal segments count: among several matching templates the most literal one is the route. */
  literals: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/**
 * Checks platform answers against the published OpenAPI document: the status must be declared for the operation,
 * the media type declared for that status, and the body valid against its schema (strict Ajv 2020-12 with formats,
 * compiled once per operation, status and media type). Paths the document does not hold may only answer errors, as
 * problem JSON. Returns what is wrong, empty when the answer conforms.
 */
export class ResponseContract {
  private readonly validator: OpenApiValidator;
  private readonly byMethod = new Map<string, Operation[]>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.validator = new OpenApiValidator(document);
    for (const [template, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item)) {
        const segments = template.split('/');
        const operations = this.byMethod.get(method.toUpperCase()) ?? [];
        operations.push({
          template,
          segments,
          literals: segments.filter((s) => !s.startsWith('{')).length,
          responses: operation.responses,
        });
        this.byMethod.set(method.toUpperCase(), operations);
      }
    for (const operations of this.byMethod.values()) operations.sort((a, b) => b.literals - a.literals);
  }

  static fromCommittedDocument(): ResponseContract {
    return ResponseContract.of(fs.readFileSync(DOCUMENT_FILE, 'utf8'));
  }

  /** One checker per distinct document text, so its compiled schemas serve every platform publishing it. */
  static of(documentText: string): ResponseContract {
    const key = createHash('sha1').update(documentText).digest('hex');
    let contract = byDocument.get(key);
    if (!contract) {
      contract = new ResponseContract(JSON.parse(documentText) as OpenApiDocument);
      byDocument.set(key, contract);
    }
    return contract;
  }

  errors(answer: Answer): string[] {
    const method = answer.method.toUpperCase();
    const pathname = pathOf(answer.url);
    if (OUTSIDE_THE_CONTRACT.some((a) => a.method === method && a.path.test(pathname))) return [];
    const where = `${method} ${pathname} → ${answer.status}`;
    const operation = this.operationOf(method === 'HEAD' ? 'GET' : method, pathname);
    if (!operation) {
      // No route: the platform's 404/405 and early refusals (body too large, bad JSON) are problems.
      if (answer.status < 400) return [`${where}: the document has no operation ${method} for this path`];
      return this.problemErrors(where, answer);
    }
    const at = `${where} (${method} ${operation.template})`;
    // An error status the operation does not list falls to its `default` response (problem JSON); a success never.
    const response =
      operation.responses[String(answer.status)] ??
      (answer.status >= 400 ? operation.responses.default : undefined);
    if (!response) return [`${at}: status ${answer.status} is not declared`];
    const mediaType = mediaTypeOf(answer.headers['content-type']);
    if (!response.content || method === 'HEAD')
      return isEmptyBody(answer.body) || method === 'HEAD' ? [] : [`${at}: a body where none is declared`];
    const media = response.content[mediaType];
    if (!media) return [`${at}: media type "${mediaType}" is not declared for ${answer.status}`];
    const key = `${method} ${operation.template} ${response === operation.responses.default ? 'default' : answer.status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.validator.compile(media.schema ?? {});
      this.compiled.set(key, validate);
    }
    return validate(answer.body) ? [] : describe(at, validate);
  }

  private problemErrors(where: string, answer: Answer): string[] {
    const mediaType = mediaTypeOf(answer.headers['content-type']);
    if (mediaType !== PROBLEM_TYPE) return [`${where}: an error as "${mediaType}", not ${PROBLEM_TYPE}`];
    let validate = this.compiled.get(PROBLEM_TYPE);
    if (!validate) {
      validate = this.validator.compile({ $ref: '#/components/schemas/Problem' });
      this.compiled.set(PROBLEM_TYPE, validate);
    }
    return validate(answer.body) ? [] : describe(where, validate);
  }

  private operationOf(method: string, pathname: string): Operation | undefined {
    const segments = pathname.split('/');
    return this.byMethod
      .get(method)
      ?.find(
        (o) =>
          o.segments.length === segments.length &&
          o.segments.every((s, i) => s.startsWith('{') || s === segments[i]),
      );
  }
}

function describe(at: string, validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map(
    (e) => `${at}: body${e.instancePath || ''} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );
}

function pathOf(url: string): string {
  const pathname = new URL(url, 'http://local.invalid').pathname;
  return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

function mediaTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}
