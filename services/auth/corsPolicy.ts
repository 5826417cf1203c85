import cors from 'cors';
import type { RequestHandler } from 'express';

type OriginRule = (origin: URL) => boolean;

function ruleFor(pattern: string): OriginRule {
  if (pattern === '*') return () => true;
  const wildcard = pattern.match(/^(https?):\/\/\*\.([^/:]+)(?::(\d+))?$/);
  if (wildcard) {
    const [, scheme, domain, port = ''] = wildcard;
    const suffix = `.${(domain ?? '').toLowerCase()}`;
    return (origin) =>
      origin.protocol === `${scheme}:` &&
      origin.port === port &&
      origin.hostname.length > suffix.length &&
      origin.hostname.endsWith(suffix);
  }
  const exact = new URL(pattern).origin;
  return (origin) => origin.origin === exact;
}

/**
 * Builds the origin test for SIWE_ALLOWED_ORIGINS: exact origins (`https://app.example.com`), subdomain wildcards
 * (`https://*.example.com` matches `https://a.example.com` and `https://a.b.example.com`, never `example.com` itself
 * or a look-alike such as `https://evil-example.com`), or `*` for any origin.
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
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After'],
    maxAge: 600,
  });
}
