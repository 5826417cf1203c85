import helmet, { contentSecurityPolicy } from 'helmet';
import type { RequestHandler } from 'express';

type Directives = Record<string, string[]>;

/**
 * The Content-Security-Policy of every answer, in one place: the web client is an esbuild bundle served from this
 * origin (no inline scripts, no CDN) that opens a WebSocket to the same host; nothing may frame the site.
 */
export const CONTENT_SECURITY_POLICY: Directives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * The Colyseus monitor's policy (`/colyseus`): its single-page app injects style elements at run time and loads
 * Google's Material Icons font; everything else as CONTENT_SECURITY_POLICY.
 */
export const MONITOR_CONTENT_SECURITY_POLICY: Directives = {
  ...CONTENT_SECURITY_POLICY,
  'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
  'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
};

export interface SecurityHeaderOptions {
  /** Send Strict-Transport-Security and upgrade-insecure-requests (when PUBLIC_BASE_URL is https). */
  https: boolean;
}

/**
 * Security headers on every answer (helmet): the CSP above, `X-Content-Type-Options: nosniff`, `X-Frame-Options:
 * DENY`, `Referrer-Policy: no-referrer`, cross-origin opener/resource policies, HSTS (one year, subdomains) when
 * served over https; and `Cache-Control: no-store`, since API answers carry tokens and personal data (a static route
 * that wants caching sets its own Cache-Control).
 */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...CONTENT_SECURITY_POLICY,
        ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    headers(req, res, next);
  };
}

/** Replaces the CSP with MONITOR_CONTENT_SECURITY_POLICY for the Colyseus monitor's pages. */
export const monitorContentSecurityPolicy: RequestHandler = contentSecurityPolicy({
  useDefaults: false,
  directives: MONITOR_CONTENT_SECURITY_POLICY,
});
