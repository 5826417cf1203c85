import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

/** A pino destination that keeps every JSON line, so tests can assert what was (and was not) logged. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      this.raw.push(line);
      this.lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    callback();
  }

  /** Lines whose `msg` equals `message`. */
  withMessage(message: string): Record<string, unknown>[] {
    return this.lines.filter((line) => line.msg === message);
  }
}

/** A pino logger at info level whose JSON lines are kept in `lines` (and as raw text in `text()`). */
export function captureLogs(): { logger: Logger; lines: Record<string, unknown>[]; text(): string } {
  const capture = new LogCapture();
  return {
    logger: pino({ level: 'info' }, capture),
    lines: capture.lines,
    text: () => capture.raw.join('\n'),
  };
}
