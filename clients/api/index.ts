/**
 * The typed REST client of Forge Platform: openapi-fetch over the types openapi-typescript generated from the
 * product's `/openapi.json` (`generated/schema.d.ts`, rewritten by `npm run client:generate`). Every path, parameter,
 * body and answer is checked by the compiler, so a breaking change to the contract fails `npm run typecheck`.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './generated/schema';

export type { components, operations, paths };
/** The published schemas by name (`ApiSchemas['SocialSyncResult']`). */
export type ApiSchemas = components['schemas'];
/** An RFC 9457 problem, the shape of every error answer. */
export type ApiProblem = ApiSchemas['Problem'];
/** A client of the whole API. */
export type ForgeApiClient = Client<paths>;

/** Options of `createForgeApiClient`. */
export interface ForgeApiClientOptions {
  /** The platform's base URL, e.g. `https://api.example.com` (no trailing slash needed). */
  baseUrl: string;
  /** A session token or the service token, sent as `Authorization: Bearer …` on every request; default none. */
  token?: string;
  /** Extra headers sent on every request. */
  headers?: Record<string, string>;
  /** The fetch to use (a test seam, a proxy agent); default `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
}

/** A typed client of the platform: `client.GET('/economy/balance')`, `client.POST('/auth/guest', { body })`. */
export function createForgeApiClient(options: ForgeApiClientOptions): ForgeApiClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
