import net from 'node:net';
import zlib from 'node:zlib';
import {
  CHARSET_ACCEPTED,
  DO,
  DONT,
  IAC,
  MSSP_VAL,
  MSSP_VAR,
  Option,
  SB,
  SE,
  TTYPE_IS,
  WILL,
  WONT,
} from '../../../../services/mud/telnet/telnetCodes';
import { TelnetParser, negotiation, subnegotiation } from '../../../../services/mud/telnet/telnetParser';

/** What the test client agrees to when the server offers it. */
export interface ClientWants {
  gmcp?: boolean;
  mssp?: boolean;
  mccp2?: boolean;
  eor?: boolean;
  charset?: boolean;
  /** Window width to report through NAWS (no NAWS when absent). */
  naws?: number;
  /** Answers to TTYPE SEND, in order (no TTYPE when absent). */
  ttype?: string[];
}

/**
 * A scripted telnet client for protocol tests: it answers the server's negotiation as `wants` says, inflates the
 * MCCP2 stream once the server starts it, and records text, GMCP messages, MSSP tables, negotiations and prompts
 * (a GA or EOR), so a test can wait for any of them.
 */
export class TelnetTestClient {
  text = '';
  readonly gmcp: Array<{ name: string; body: unknown }> = [];
  readonly mssp: Array<Record<string, string>> = [];
  readonly received: Array<{ verb: number; option: number }> = [];
  /** Bytes received on the wire (compressed or not). */
  wireBytes = 0;
  prompts = 0;
  promptEnds: number[] = [];
  compressed = false;
  closed = false;
  private parser = new TelnetParser({ maxSubnegotiationBytes: 1 << 20 });
  private inflate?: zlib.Inflate;
  private ttypeIndex = 0;
  private waiters: Array<{ check: () => boolean; resolve: () => void }> = [];

  private constructor(
    readonly socket: net.Socket,
    private readonly wants: ClientWants,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.wireBytes += chunk.length;
      if (this.inflate) this.inflate.write(chunk);
      else this.feed(chunk);
    });
    socket.on('close', () => {
      this.closed = true;
      this.settle();
    });
    socket.on('error', () => undefined);
  }

  /** Connects to 127.0.0.1:`port`, from `localAddress` (another loopback address plays another client host). */
  static connect(port: number, wants: ClientWants = {}, localAddress?: string): Promise<TelnetTestClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress });
      const client = new TelnetTestClient(socket, wants);
      socket.once('connect', () => resolve(client));
      socket.once('error', reject);
    });
  }

  /** Types a line (CR LF). */
  line(text: string): void {
    this.socket.write(Buffer.concat([Buffer.from(text, 'utf8'), Buffer.of(0x0d, 0x0a)]));
  }

  raw(bytes: Buffer | number[]): void {
    this.socket.write(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
  }

  sendGmcp(name: string, body?: unknown): void {
    this.raw(subnegotiation(Option.GMCP, body === undefined ? name : `${name} ${JSON.stringify(body)}`));
  }

  /** Resolves once `check()` holds (checked on every arrival); rejects after `timeoutMs` with what was seen. */
  waitFor(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.check !== check);
        reject(new Error(`timed out waiting for ${what}; text so far:\n${this.text.slice(-2000)}`));
      }, timeoutMs);
      this.waiters.push({ check, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Waits for text matching `pattern` after the first `from` characters. */
  waitForText(pattern: RegExp, from = 0, timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => pattern.test(this.text.slice(from)), String(pattern), timeoutMs);
  }

  /** Waits for the next GMCP message named `name` after the first `from` messages; resolves with its body. */
  async waitForGmcp(name: string, from = 0, timeoutMs = 5000): Promise<unknown> {
    const find = () => this.gmcp.slice(from).find((m) => m.name === name);
    await this.waitFor(() => find() !== undefined, `GMCP ${name}`, timeoutMs);
    return find()!.body;
  }

  waitForClose(timeoutMs = 5000): Promise<void> {
    return this.waitFor(() => this.closed, 'the server to close', timeoutMs);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.destroy();
    });
  }

  private feed(chunk: Buffer): void {
    for (const token of this.parser.feed(chunk)) {
      if (token.kind === 'data') this.text += token.bytes.toString('utf8');
      else if (token.kind === 'command') {
        this.prompts += 1;
        this.promptEnds.push(token.command);
      } else if (token.kind === 'negotiate') this.negotiate(token.verb, token.option);
      else if (this.subnegotiation(token.option, token.data, chunk)) return;
    }
    this.settle();
  }

  private negotiate(verb: number, option: number): void {
    this.received.push({ verb, option });
    const { wants } = this;
    const agree: Record<number, boolean | undefined> = {
      [Option.GMCP]: wants.gmcp,
      [Option.MSSP]: wants.mssp,
      [Option.MCCP2]: wants.mccp2,
      [Option.EOR]: wants.eor,
      [Option.CHARSET]: wants.charset,
      [Option.ECHO]: true,
      [Option.NAWS]: wants.naws !== undefined,
      [Option.TTYPE]: wants.ttype !== undefined,
    };
    if (verb === WILL) this.raw(negotiation(agree[option] ? DO : DONT, option));
    else if (verb === DO) {
      this.raw(negotiation(agree[option] ? WILL : WONT, option));
      if (option === Option.NAWS && wants.naws !== undefined) this.sendNaws(wants.naws);
    }
  }

  /** Reports a window size (escaping a 255 byte, as RFC 1073 requires). */
  sendNaws(width: number, height = 24): void {
    const size = Buffer.alloc(4);
    size.writeUInt16BE(width, 0);
    size.writeUInt16BE(height, 2);
    this.raw(subnegotiation(Option.NAWS, size));
  }

  /** Handles a subnegotiation; true when the rest of `chunk` is compressed (MCCP2 started). */
  private subnegotiation(option: number, data: Buffer, chunk: Buffer): boolean {
    if (option === Option.GMCP) {
      const text = data.toString('utf8');
      const space = text.indexOf(' ');
      this.gmcp.push(
        space < 0
          ? { name: text, body: undefined }
          : { name: text.slice(0, space), body: JSON.parse(text.slice(space + 1)) },
      );
    } else if (option === Option.MSSP) this.mssp.push(parseMssp(data));
    else if (option === Option.TTYPE && data[0] === 1) {
      const names = this.wants.ttype ?? [];
      const name = names[Math.min(this.ttypeIndex++, names.length - 1)] ?? 'UNKNOWN';
      this.raw(subnegotiation(Option.TTYPE, Buffer.concat([Buffer.of(TTYPE_IS), Buffer.from(name)])));
    } else if (option === Option.CHARSET && data[0] === 1) {
      this.raw(
        subnegotiation(Option.CHARSET, Buffer.concat([Buffer.of(CHARSET_ACCEPTED), Buffer.from('UTF-8')])),
      );
    } else if (option === Option.MCCP2) {
      this.compressed = true;
      const marker = Buffer.of(IAC, SB, Option.MCCP2, IAC, SE);
      const rest = chunk.subarray(chunk.indexOf(marker) + marker.length);
      // What the old parser saw after the marker was compressed: start afresh on the inflated stream.
      this.parser = new TelnetParser({ maxSubnegotiationBytes: 1 << 20 });
      const inflate = zlib.createInflate();
      inflate.on('data', (plain: Buffer) => this.feed(plain));
      inflate.on('error', () => undefined);
      this.inflate = inflate;
      if (rest.length > 0) inflate.write(rest);
      this.settle();
      return true;
    }
    return false;
  }

  private settle(): void {
    this.waiters = this.waiters.filter((w) => (w.check() ? (w.resolve(), false) : true));
  }
}

/** MSSP_VAR name MSSP_VAL value … → { name: value }. */
function parseMssp(data: Buffer): Record<string, string> {
  const table: Record<string, string> = {};
  let name = '';
  let value = '';
  let into: 'name' | 'value' | undefined;
  const flush = () => {
    if (name) table[name] = value;
    name = '';
    value = '';
  };
  for (const byte of data) {
    if (byte === MSSP_VAR) {
      flush();
      into = 'name';
    } else if (byte === MSSP_VAL) into = 'value';
    else if (into === 'name') name += String.fromCharCode(byte);
    else if (into === 'value') value += String.fromCharCode(byte);
  }
  flush();
  return table;
}
