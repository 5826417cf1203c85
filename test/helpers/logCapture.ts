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
    this.emit('lines');
    callback();
  }

  /**
   * The first line `predicate` accepts: at once when already logged, else as soon as it is written. Rejects after
   * `timeoutMs` (default 5 s), so a line that never comes fails the test instead of hanging it.
   */
  waitForLine(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs = 5000,
  ): Promise<Record<string, unknown>> {
    const found = this.lines.find(predicate);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const check = () => {
        const line = this.lines.find(predicate);
        if (!line) return;
        clearTimeout(timer);
        this.off('lines', check);
        resolve(line);
      };
      const timer = setTimeout(() => {
        this.off('lines', check);
        reject(new Error(`no matching log line in ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('lines', check);
    });
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
