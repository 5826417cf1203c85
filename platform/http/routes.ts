import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { parseRequest } from './validation';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { PublishedStrings } from './publishedStrings';
import { publishNullableRefs } from './nullableRefs';

/** What a handler returns: the status and JSON body (and optional headers) of a successful response. */
export interface Reply<T = unknown> {
  status: number;
  body?: T;
  headers?: Record<string, string>;
}

/** Validated inputs handed to a handler, typed from the route's schemas. */
export interface RouteContext<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type AnySchema = z.ZodType;
type ObjectSchema = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route: method, Express-style path, documentation, zod schemas and a handler. */
export interface RouteDefinition<
  B extends AnySchema | undefined,
  Q extends ObjectSchema | undefined,
  P extends ObjectSchema | undefined,
> {
  method: Method;
  /** Express path, e.g. `/social/brain/profile/:platform/:user_id`. */
  path: string;
  summary: string;
  /** Longer explanation shown in the OpenAPI document. */
  description?: string;
  tags: string[];
  /** Security requirement shown in OpenAPI (enforcement is the `middleware`'s job). Default: public. */
  security?: 'bearer' | 'admin';
  /** Runs before validation: rate limits, authentication. */
  middleware?: RequestHandler[];
  request?: { body?: B; query?: Q; params?: P };
  /**
   * Responses by status, JSON unless `mediaType` says otherwise (a handler that writes its own body, such as the
   * metrics text); error responses (problem JSON) are added automatically, with a `default` problem for any error
   * status a route does not list.
   */
  responses: Record<
    number,
    {
      description: string;
      schema?: AnySchema;
      mediaType?: string;
      /** Other media types the same status may answer, each with its schema (an event stream beside JSON). */
      alsoAs?: Record<string, AnySchema>;
    }
  >;
  handler: (ctx: RouteContext<Out<B>, Out<Q>, Out<P>>) => Promise<Reply> | Reply;
}

/** Shared schema of every error body (RFC 9457 problem details). */
export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    code: z.string(),
    requestId: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing or invalid credential',
  403: 'Not allowed',
  429: 'Rate limited',
  500: 'Unexpected error',
};

/**
 * The API's routes: each `add` mounts a validated Express handler and registers the same definition in the
 * OpenAPI document, so the served document always matches the routes that exist.
 */
export class ApiRoutes {
  readonly router = express.Router();
  private readonly registry = new OpenAPIRegistry();
  private readonly strings = new PublishedStrings();

  constructor() {
    this.registry.registerComponent('securitySchemes', 'bearer', {
      type: 'http',
      scheme: 'bearer',
      description:
        'Session token from sign-in, or the service token (BRAIN_SERVICE_TOKEN) for bots and agents',
    });
  }

  add<
    B extends AnySchema | undefined,
    Q extends ObjectSchema | undefined,
    P extends ObjectSchema | undefined,
  >(route: RouteDefinition<B, Q, P>): void {
    this.collectStrings(route);
    this.registry.registerPath(this.describe(route));
    const run = async (req: Request, res: Response) => {
      res.locals.routeTemplate = route.path;
      const ctx = { ...parseRequest(route.request ?? {}, req), req, res } as RouteContext<
        Out<B>,
        Out<Q>,
        Out<P>
      >;
      const reply = await route.handler(ctx);
      if (res.headersSent) return;
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      if (reply.body === undefined) res.status(reply.status).end();
      else if (req.method === 'GET' || req.method === 'HEAD' || res.hasHeader('Content-Type'))
        res.status(reply.status).json(reply.body);
      else sendJson(res, reply.status, reply.body);
    };
    const handler = (req: Request, res: Response, next: NextFunction) => run(req, res).catch(next);
    this.router[route.method](route.path, ...(route.middleware ?? []), handler);
  }

  /**
   * The OpenAPI 3.1 document of every registered route. Its patterns and formats are ones a standard JSON Schema
   * 2020-12 validator reads as the server does (`publishedStrings.ts`); a schema that has none throws here, at start-up.
   */
  document(info: { title: string; version: string; description?: string }) {
    return this.strings.publish(
      publishNullableRefs(
        new OpenApiGeneratorV31(this.registry.definitions).generateDocument({ openapi: '3.1.0', info }),
      ),
    );
  }

  /** Refuses, when the route is declared, a regex its schemas could not publish (a flag, a legacy-only escape). */
  private collectStrings(
    route: RouteDefinition<AnySchema | undefined, ObjectSchema | undefined, ObjectSchema | undefined>,
  ): void {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    const { body, query, params } = route.request ?? {};
    for (const [part, schema] of Object.entries({ body, query, params }))
      if (schema) this.strings.collect(schema, `${where} ${part}`);
    for (const [status, response] of Object.entries(route.responses))
      if (response.schema) this.strings.collect(response.schema, `${where} ${status}`);
  }

  private describe(
    route: RouteDefinition<AnySchema | undefined, ObjectSchema | undefined, ObjectSchema | undefined>,
  ) {
    const responses: RouteConfig['responses'] = {};
    for (const [status, response] of Object.entries(route.responses)) {
      // An error status a route declares by its code alone answers a problem, as every error does.
      const schema = response.schema ?? (Number(status) >= 400 ? ProblemSchema : undefined);
      const mediaType = response.schema ? (response.mediaType ?? 'application/json') : PROBLEM_CONTENT_TYPE;
      const also = Object.fromEntries(
        Object.entries(response.alsoAs ?? {}).map(([type, other]) => [type, { schema: other }]),
      );
      responses[status] = schema
        ? { description: response.description, content: { [mediaType]: { schema }, ...also } }
        : { description: response.description };
    }
    const errorStatuses = [
      400,
      429,
      500,
      ...(route.security ? [401] : []),
      ...(route.security === 'admin' ? [403] : []),
    ];
    for (const status of errorStatuses) {
      responses[String(status)] ??= {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      };
    }
    // A GET answer carries an ETag: a matching If-None-Match gets 304 without a body.
    if (route.method === 'get') responses['304'] ??= { description: 'Not modified (If-None-Match matched)' };
    // Any other error (403 for a role, 404, 409, 413, 415, 503 …) is a problem too, as Stripe's document says it.
    responses.default ??= {
      description: 'Any other error: RFC 9457 problem details with a stable `code`',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
    };
    const request: RouteConfig['request'] = {};
    if (route.request?.body)
      request.body = { content: { 'application/json': { schema: route.request.body } } };
    if (route.request?.query) request.query = route.request.query;
    if (route.request?.params) request.params = route.request.params;
    return {
      method: route.method,
      path: route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      ...(route.security ? { security: [{ bearer: [] }] } : {}),
      request,
      responses,
    } satisfies RouteConfig;
  }
}

/**
 * A JSON answer to a request that changes something (POST, PUT, PATCH, DELETE), written as one string: Node then
 * sends the head and the body in one write. Express's `res.json` turns the body into a Buffer to hash an ETag, which
 * only a conditional GET can use, and a Buffer body makes Node write head and body separately; GET and HEAD answers
 * keep going through it, and so do answers whose handler chose a Content-Type. 204 and 304 carry no body.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  if (status === 204 || status === 304) {
    res.status(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
