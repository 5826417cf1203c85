/** A line the player typed, or word that one was too long. */
export type InputLine = { kind: 'line'; text: string } | { kind: 'overlong'; limit: number };

/** Longest input line accepted, bytes (a line of 280 characters of chat fits many times). */
export const MAX_LINE_BYTES = 1024;

const CR = 0x0d;
const LF = 0x0a;
const NUL = 0x00;

/**
 * Turns the data bytes of a telnet stream into lines. A line ends with CR LF, CR NUL (RFC 854), a bare LF or a
 * bare CR. Bytes are decoded as UTF-8 (invalid sequences become U+FFFD), and control characters other than tab
 * are removed, so binary garbage reaches the command parser as harmless text. A line longer than `maxBytes` is
 * dropped whole (never run cut short) and reported once as `overlong`; the assembler holds at most `maxBytes`.
 */
export class LineAssembler {
  private parts: Buffer[] = [];
  private length = 0;
  private overlong = false;
  private afterCr = false;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly maxBytes = MAX_LINE_BYTES) {}

  /** Adds data bytes; returns the lines they complete. */
  push(bytes: Buffer): InputLine[] {
    const lines: InputLine[] = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (byte === LF || byte === NUL) {
          start = i + 1;
          continue;
        }
      }
      if (byte !== CR && byte !== LF) continue;
      this.keep(bytes.subarray(start, i));
      lines.push(this.finish());
      this.afterCr = byte === CR;
      start = i + 1;
    }
    this.keep(bytes.subarray(start));
    return lines;
  }

  private keep(bytes: Buffer): void {
    if (bytes.length === 0 || this.overlong) return;
    if (this.length + bytes.length > this.maxBytes) {
      this.overlong = true;
      this.parts = [];
      this.length = 0;
      return;
    }
    this.parts.push(Buffer.from(bytes));
    this.length += bytes.length;
  }

  private finish(): InputLine {
    const line: InputLine = this.overlong
      ? { kind: 'overlong', limit: this.maxBytes }
      : { kind: 'line', text: clean(this.decoder.decode(Buffer.concat(this.parts, this.length))) };
    this.parts = [];
    this.length = 0;
    this.overlong = false;
    return line;
  }
}

/** Removes control characters (C0 but tab, DEL, C1) and surrounding blanks. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, '').trim();
}
