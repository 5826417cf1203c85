import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { LineAssembler, type InputLine } from './lineAssembler';
import { OptionStates } from './optionStates';
import {
  CHARSET_ACCEPTED,
  CHARSET_REQUEST,
  EOR_CMD,
  GA,
  IAC,
  Option,
  SB,
  SE,
  TTYPE_IS,
  TTYPE_SEND,
} from './telnetCodes';
import { TelnetParser, escapeIac, negotiation, subnegotiation } from './telnetParser';
import { type GmcpMessage, gmcpPayload, parseGmcp } from './gmcpMessages';

/** What a connection tells the session above it. */
export interface ConnectionHandler {
  line(line: InputLine): void;
  gmcp(name: string, body: unknown): void;
  /** The client agreed to GMCP (send what it should know now). */
  gmcpReady(): void;
  /** The client asked for MSSP: answer with the table. */
  msspRequested(): void;
  /** The client broke a limit (negotiation flood, output it does not read): the connection is closing. */
  abuse(reason: string): void;
}

/** Limits of one connection. */
export interface ConnectionLimits {
  /** Negotiations and subnegotiations accepted per second; more close the connection. Default 100. */
  negotiationsPerSecond?: number;
  /** Output the client may leave unread, bytes, before it is dropped as a slow reader. Default 1 MiB. */
  maxUnreadBytes?: number;
  now?: () => number;
}

/** Options we perform (WILL) and options we ask the client to perform (DO). */
const LOCAL = [Option.GMCP, Option.MSSP, Option.MCCP2, Option.EOR, Option.CHARSET, Option.ECHO];
const REMOTE = [Option.NAWS, Option.TTYPE];

/**
 * One telnet connection's protocol: parses input (lines, negotiation, subnegotiations), negotiates NAWS, TTYPE with
 * MTTS, CHARSET (UTF-8), EOR, GMCP, MSSP, MCCP2 and ECHO, and writes output escaped (IAC IAC), prompts ended with EOR
 * or GA, and — once the client agreed to MCCP2 — through one zlib deflate stream. It knows nothing of the game.
 */
export class TelnetConnection {
  /** Window width from NAWS (80 until the client says). */
  width = 80;
  /** Terminal names from TTYPE, in the order the client gave them (client, terminal, `MTTS <n>`). */
  readonly terminalTypes: string[] = [];
  /** MTTS bit field, when the client sent one. */
  mtts?: number;
  /** Whether the client accepted UTF-8 through CHARSET (we send UTF-8 either way: the MUD convention). */
  utf8Accepted = false;
  /** GMCP packages the client supports (`Core.Supports.Set`); undefined until it says, meaning "send all". */
  supports?: Set<string>;
  private readonly parser = new TelnetParser();
  private readonly lines = new LineAssembler();
  private readonly options = new OptionStates(LOCAL, REMOTE, [Option.ECHO]);
  private deflate?: zlib.Deflate;
  /** Output held while a stopped compressor writes its last bytes, so nothing overtakes them. */
  private held?: Buffer[];
  private closed = false;
  private windowStart = 0;
  private inWindow = 0;
  private readonly now: () => number;

  constructor(
    readonly socket: Socket,
    private readonly handler: ConnectionHandler,
    private readonly limits: ConnectionLimits = {},
  ) {
    this.now = limits.now ?? Date.now;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => {
      this.closed = true;
      this.deflate?.destroy();
    });
  }

  /** Offers what we speak: WILL GMCP, MSSP, MCCP2, EOR, CHARSET; DO NAWS, TTYPE. */
  start(): void {
    const offers = [
      Option.GMCP,
      Option.MSSP,
      Option.MCCP2,
      Option.EOR,
      Option.CHARSET,
      Option.NAWS,
      Option.TTYPE,
    ];
    this.out(Buffer.concat(offers.map((option) => negotiation(this.options.ask(option)!, option))));
  }

  get gmcp(): boolean {
    return this.options.isOn(Option.GMCP);
  }

  get compressing(): boolean {
    return this.deflate !== undefined;
  }

  /** Text to show, already formatted (CR LF line ends); 255 bytes are escaped. */
  write(text: string): void {
    this.out(escapeIac(Buffer.from(text, 'utf8')));
  }

  /** A prompt: the text without a line end, then IAC EOR (client agreed to EOR) or IAC GA. */
  prompt(text: string): void {
    const end = this.options.isOn(Option.EOR) ? EOR_CMD : GA;
    this.out(Buffer.concat([escapeIac(Buffer.from(text, 'utf8')), Buffer.of(IAC, end)]));
  }

  /** A GMCP message, if the client speaks GMCP and supports its package. */
  sendGmcp(message: GmcpMessage): void {
    if (!this.gmcp || !this.supported(message[0])) return;
    this.out(subnegotiation(Option.GMCP, gmcpPayload(message)));
  }

  /** An MSSP table. */
  sendMssp(payload: Buffer): void {
    this.out(subnegotiation(Option.MSSP, payload));
  }

  /** Hides what the player types (IAC WILL ECHO: we echo, and echo nothing) until `echoOn`. */
  echoOff(): void {
    const verb = this.options.ask(Option.ECHO);
    if (verb !== undefined) this.out(negotiation(verb, Option.ECHO));
  }

  echoOn(): void {
    const verb = this.options.withdraw(Option.ECHO);
    if (verb !== undefined) this.out(negotiation(verb, Option.ECHO));
    // The client's own Enter was not echoed while we held ECHO.
    this.write('\r\n');
  }

  /** Says goodbye and closes once the text is written (through the compressor when compressing). */
  close(text?: string): void {
    if (this.closed) return;
    if (text) this.write(text);
    this.closed = true;
    if (this.deflate) {
      this.deflate.once('end', () => this.socket.end());
      this.deflate.end();
    } else if (!this.held) this.socket.end(); // else the held output's flush ends it
    // A client that never reads must not hold the socket open.
    setTimeout(() => this.socket.destroy(), 2000).unref();
  }

  private out(bytes: Buffer): void {
    if (this.closed || this.socket.destroyed) return;
    if (this.socket.writableLength > (this.limits.maxUnreadBytes ?? 1024 * 1024)) {
      this.handler.abuse('slow_reader');
      this.socket.destroy();
      return;
    }
    if (this.deflate) this.deflate.write(bytes);
    else if (this.held) this.held.push(bytes);
    else {
      this.holdForTurn();
      this.socket.write(bytes);
    }
  }

  /**
   * Corks the socket until the current turn of the event loop is done (Node's `cork` then `uncork` on the next
   * tick), so what one turn sends (an answer's text, its GMCP messages and the prompt) leaves in ONE write system
   * call instead of one per piece: at 125 telnet players, their separate writes were 8% of the server's main thread.
   */
  private holdForTurn(): void {
    if (this.socket.writableCorked > 0) return;
    this.socket.cork();
    process.nextTick(() => this.socket.uncork());
  }

  /** Bytes straight to the socket: only the MCCP2 start marker and the compressor's own output. */
  private raw(bytes: Buffer): void {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  private supported(name: string): boolean {
    if (!this.supports) return true;
    const parts = name.split('.');
    // "Char.Items.List" is covered by "Char.Items" or by "Char".
    return parts.some((_, i) =>
      this.supports!.has(
        parts
          .slice(0, i + 1)
          .join('.')
          .toLowerCase(),
      ),
    );
  }

  private receive(chunk: Buffer): void {
    for (const token of this.parser.feed(chunk)) {
      if (this.closed) return;
      if (token.kind === 'data') {
        for (const line of this.lines.push(token.bytes)) this.handler.line(line);
        continue;
      }
      if (token.kind === 'command') continue; // NOP, AYT, GA from the client: nothing to do
      if (!this.withinNegotiationRate()) {
        this.handler.abuse('negotiation_flood');
        this.close('Too much telnet negotiation; closing.\r\n');
        return;
      }
      if (token.kind === 'negotiate') this.negotiate(token.verb, token.option);
      else this.subnegotiated(token.option, token.data);
    }
  }

  private withinNegotiationRate(): boolean {
    const now = this.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    this.inWindow += 1;
    return this.inWindow <= (this.limits.negotiationsPerSecond ?? 100);
  }

  private negotiate(verb: number, option: number): void {
    const { reply, turned } = this.options.receive(verb, option);
    // A client that turns MCCP2 off may have stopped inflating: the stream ends first, the answer follows it plain.
    if (turned === 'off' && option === Option.MCCP2) this.stopCompressing();
    if (reply !== undefined) this.out(negotiation(reply, option));
    if (turned !== 'on') return;
    switch (option) {
      case Option.GMCP:
        this.handler.gmcpReady();
        break;
      case Option.MSSP:
        this.handler.msspRequested();
        break;
      case Option.MCCP2:
        this.startCompressing();
        break;
      case Option.TTYPE:
        this.out(Buffer.of(IAC, SB, Option.TTYPE, TTYPE_SEND, IAC, SE));
        break;
      case Option.CHARSET:
        this.out(
          subnegotiation(Option.CHARSET, Buffer.concat([Buffer.of(CHARSET_REQUEST), Buffer.from(';UTF-8')])),
        );
        break;
    }
  }

  private subnegotiated(option: number, data: Buffer): void {
    switch (option) {
      case Option.NAWS:
        if (data.length >= 4) this.width = data.readUInt16BE(0);
        break;
      case Option.TTYPE:
        this.terminalType(data);
        break;
      case Option.CHARSET:
        this.utf8Accepted =
          data[0] === CHARSET_ACCEPTED && /utf-?8/i.test(data.subarray(1).toString('latin1'));
        break;
      case Option.GMCP: {
        const { name, body } = parseGmcp(data.toString('utf8'));
        this.handler.gmcp(name, body);
        break;
      }
    }
  }

  /** TTYPE answers: ask again until the client repeats itself or has given three (the third may be MTTS). */
  private terminalType(data: Buffer): void {
    if (data[0] !== TTYPE_IS) return;
    const name = data.subarray(1).toString('latin1').slice(0, 64);
    const mtts = /^MTTS (\d+)$/.exec(name);
    if (mtts) this.mtts = Number(mtts[1]);
    const repeated = this.terminalTypes.includes(name);
    if (!repeated) this.terminalTypes.push(name);
    if (!repeated && !mtts && this.terminalTypes.length < 3) {
      this.out(Buffer.of(IAC, SB, Option.TTYPE, TTYPE_SEND, IAC, SE));
    }
  }

  /**
   * MCCP2: IAC SB MCCP2 IAC SE uncompressed, then everything through one deflate stream, sync-flushed per write. A
   * 4 KiB window and small hash table keep a connection's compressor near 32 KB (zlib's defaults take ~256 KB);
   * clients inflate any window size.
   */
  private startCompressing(): void {
    if (this.deflate || this.held) return;
    this.raw(Buffer.of(IAC, SB, Option.MCCP2, IAC, SE));
    const deflate = zlib.createDeflate({ flush: zlib.constants.Z_SYNC_FLUSH, windowBits: 12, memLevel: 5 });
    deflate.on('data', (chunk: Buffer) => this.raw(chunk));
    deflate.on('error', () => this.socket.destroy());
    this.deflate = deflate;
  }

  /** The client turned MCCP2 off: end the stream, and send what follows uncompressed once its last bytes are out. */
  private stopCompressing(): void {
    const deflate = this.deflate;
    if (!deflate) return;
    this.deflate = undefined;
    this.held = [];
    deflate.once('end', () => {
      const held = this.held ?? [];
      this.held = undefined;
      for (const bytes of held) this.raw(bytes);
      if (this.closed) this.socket.end();
    });
    deflate.end();
  }
}
