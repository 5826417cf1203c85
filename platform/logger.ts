import pino, { type Logger } from 'pino';
import { lineRedactor } from './redaction';

export type { Logger } from 'pino';

/** Paths pino replaces with "[redacted]": credentials in headers, bodies and config objects never reach the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.privateKey',
  '*.mnemonic',
  '*.apiKey',
  'config.BRAIN_SERVICE_TOKEN',
  'config.QDRANT_API_KEY',
  'config.SMTP_URL',
  'config.OIDC_CLIENT_SECRET',
];

export interface LoggerOptions {
  level: string;
  /** Service name placed on every line (default "forge-platform"). */
  name?: string;
  /** Where lines go (default stdout); tests pass a stream to read them back. */
  destination?: pino.DestinationStream;
  /** Credential values removed from every line wherever they appear (`secretsOf(config)`). */
  secrets?: readonly string[];
}

/**
 * The process logger: JSON lines with ISO timestamps and secrets redacted: the paths above by pino, and every URL in
 * a written line (an error's message or stack carrying a store or RPC URL) by `redactUrls`, down to scheme, host and
 * port, and every value of `secrets` wherever it appears.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.name ?? 'forge-platform',
      level: options.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      hooks: { streamWrite: lineRedactor(options.secrets ?? []) },
    },
    options.destination,
  );
}

/** A logger that writes nothing, for components constructed without one. */
export const silentLogger: Logger = pino({ level: 'silent' });
