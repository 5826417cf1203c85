import { DO, DONT, IAC, SB, SE, WILL, WONT } from './telnetCodes';

/** What the parser finds in the byte stream from a client. */
export type TelnetToken =
  | { kind: 'data'; bytes: Buffer }
  | { kind: 'command'; command: number }
  | { kind: 'negotiate'; verb: typeof DO | typeof DONT | typeof WILL | typeof WONT; option: number }
  | { kind: 'subnegotiation'; option: number; data: Buffer };

/** Parser limits. */
export interface TelnetParserOptions {
  /** Largest subnegotiation kept, bytes (GMCP from a client is small); longer ones are dropped whole. Default 8 KiB. */
  maxSubnegotiationBytes?: number;
}

const enum State {
  Data,
  Iac,
  Verb,
  Sb,
  SbOption,
  SbIac,
}

/**
 * An incremental RFC 854/855 parser: feed it chunks as they arrive and it returns data runs (with `IAC IAC`
 * unescaped to one 255), commands, option negotiations and subnegotiations, whatever the chunk boundaries. It keeps
 * at most one subnegotiation, capped, so garbage cannot grow its memory; an unterminated or oversized
 * subnegotiation is dropped, never delivered in part.
 */
export class TelnetParser {
  private state = State.Data;
  private verb = 0;
  private sbOption = 0;
  private sbChunks: Buffer[] = [];
  private sbLength = 0;
  private sbOverflow = false;
  private readonly maxSb: number;

  constructor(options: TelnetParserOptions = {}) {
    this.maxSb = options.maxSubnegotiationBytes ?? 8 * 1024;
  }

  /** Parses one chunk. */
  feed(chunk: Buffer): TelnetToken[] {
    const tokens: TelnetToken[] = [];
    let runStart = -1;
    const endRun = (end: number) => {
      if (runStart >= 0 && end > runStart)
        tokens.push({ kind: 'data', bytes: chunk.subarray(runStart, end) });
      runStart = -1;
    };
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      switch (this.state) {
        case State.Data:
          if (byte === IAC) {
            endRun(i);
            this.state = State.Iac;
          } else if (runStart < 0) runStart = i;
          break;
        case State.Iac:
          this.state = State.Data;
          if (byte === IAC)
            runStart = i; // the escaped 255 starts the next run
          else if (byte === DO || byte === DONT || byte === WILL || byte === WONT) {
            this.verb = byte;
            this.state = State.Verb;
          } else if (byte === SB) this.state = State.SbOption;
          else tokens.push({ kind: 'command', command: byte });
          break;
        case State.Verb:
          tokens.push({ kind: 'negotiate', verb: this.verb as typeof DO, option: byte });
          this.state = State.Data;
          break;
        case State.SbOption:
          this.sbOption = byte;
          this.sbChunks = [];
          this.sbLength = 0;
          this.sbOverflow = false;
          this.state = State.Sb;
          break;
        case State.Sb: {
          // Copy the run up to the next IAC in one go.
          let end = chunk.indexOf(IAC, i);
          if (end < 0) end = chunk.length;
          this.keep(chunk.subarray(i, end));
          i = end - 1;
          if (end < chunk.length) {
            i = end;
            this.state = State.SbIac;
          }
          break;
        }
        case State.SbIac:
          if (byte === IAC) {
            this.keep(Buffer.of(IAC));
            this.state = State.Sb;
          } else if (byte === SE) {
            if (!this.sbOverflow) {
              tokens.push({
                kind: 'subnegotiation',
                option: this.sbOption,
                data: Buffer.concat(this.sbChunks, this.sbLength),
              });
            }
            this.sbChunks = [];
            this.state = State.Data;
          } else {
            // IAC <other> inside a subnegotiation: a broken client; drop what we have and resume in data.
            this.sbChunks = [];
            this.state = State.Data;
          }
          break;
      }
    }
    endRun(chunk.length);
    return tokens;
  }

  private keep(bytes: Buffer): void {
    if (this.sbOverflow || bytes.length === 0) return;
    if (this.sbLength + bytes.length > this.maxSb) {
      this.sbOverflow = true;
      this.sbChunks = [];
      return;
    }
    // Copy: the chunk may be reused by the socket after this call.
    this.sbChunks.push(Buffer.from(bytes));
    this.sbLength += bytes.length;
  }
}

/** Doubles every 255 in `bytes` (data, or a subnegotiation's payload), as RFC 854 requires. */
export function escapeIac(bytes: Buffer): Buffer {
  if (!bytes.includes(IAC)) return bytes;
  const out: number[] = [];
  for (const byte of bytes) {
    out.push(byte);
    if (byte === IAC) out.push(IAC);
  }
  return Buffer.from(out);
}

/** `IAC <verb> <option>`. */
export function negotiation(verb: number, option: number): Buffer {
  return Buffer.of(IAC, verb, option);
}

/** `IAC SB <option> <payload, escaped> IAC SE`. */
export function subnegotiation(option: number, payload: Buffer | string): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.of(IAC, SB, option), escapeIac(bytes), Buffer.of(IAC, SE)]);
}
