import cors from 'cors';
import type { RequestHandler } from 'express';
import { ConfigError } from '../config';

type OriginRule = (origin: URL) => boolean;

function ruleFor(pattern: string): OriginRule {
  if (pattern === '*') return () => true;
  const wildcard = pattern.match(/^(https?):\/\/\*\.([^/:*]+)(?::(\d+))?$/);
  if (wildcard) {
    const [, scheme, domain, port = ''] = wildcard;
    const suffix = `.${(domain ?? '').toLowerCase()}`;
    return (origin) =>
      origin.protocol === `${scheme}:` &&
      origin.port === port &&
      origin.hostname.length > suffix.length &&
      origin.hostname.endsWith(suffix);
  }
  const exact = exactOrigin(pattern);
  return (origin) => origin.origin === exact;
}

/** The origin an exact pattern names; anything but `http(s)://host[:port]` stops start-up with a ConfigError. */
function exactOrigin(pattern: string): string {
  const url = URL.canParse(pattern) ? new URL(pattern) : undefined;
  if (
    url &&
    ['http:', 'https:'].includes(url.protocol) &&
    !url.hostname.includes('*') &&
    url.origin === pattern.replace(/\/$/, '')
  ) {
    return url.origin;
  }
  throw new ConfigError([
    {
      variable: 'SIWE_ALLOWED_ORIGINS',
      expected: 'expected comma-separated origins: https://host[:port], https://*.domain[:port] or *',
      received: pattern,
    },
  ]);
}

/**
 * Builds the origin test for SIWE_ALLOWED_ORIGINS: exact origins (`https://app.example.com`), subdomain wildcards
 * (`https://*.example.com` matches `https://a.example.com` and `https://a.b.example.com`, never `example.com` itself
 * or a look-alike such as `https://evil-example.com`), or `*` for any origin. A malformed pattern throws a
 * ConfigError naming SIWE_ALLOWED_ORIGINS.
 */
export function originMatcher(patterns: string[]): (origin: string) => boolean {
  const rules = patterns.map(ruleFor);
  return (origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return rules.some((rule) => rule(url));
  };
}

/** CORS middleware for the sign-in routes: allowed origins get CORS headers; others get none (browsers block). */
export function corsPolicy(patterns: string[]): RequestHandler {
  const allowed = originMatcher(patterns);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed'],
    maxAge: 600,
  });
}
