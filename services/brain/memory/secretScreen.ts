import { BLOCKING_SECRET_KINDS, redactSecrets, scanForSecrets } from '../../../ai/memory/secretScanner';
import { memoryError } from './errors';

/**
 * The content a remember stores: as given, or redacted (`redact`, BRAIN_MEMORY_REDACT_SECRETS) when it holds a private
 * key or a mnemonic; without `redact` such content is refused (400 BRAIN_SECRET_DETECTED, naming kinds and lines,
 * never the value).
 */
export function screenSecrets(content: string, redact: boolean): string {
  const blocking = scanForSecrets(content, BLOCKING_SECRET_KINDS);
  if (blocking.length === 0) return content;
  if (redact) return redactSecrets(content, blocking);
  throw memoryError(
    'BRAIN_SECRET_DETECTED',
    `The content holds ${[...new Set(blocking.map((finding) => finding.kind))].join(' and ')} material; it was not stored`,
    {
      errors: blocking.map((finding) => ({
        path: 'body.content',
        message: `${finding.kind} at line ${finding.line}`,
      })),
    },
  );
}
