/** A minimal MUD client for the benches: the telnet side of bench/telnetPlayers.ts and bench/mudRoom.ts. */
import type net from 'node:net';
import zlib from 'node:zlib';
import { DO, DONT, EOR_CMD, GA, Option, WILL, WONT } from '../../services/mud/telnet/telnetCodes';
import { TelnetParser, negotiation } from '../../services/mud/telnet/telnetParser';

/** One bench client: answers GMCP, EOR (and MCCP2) yes and everything else no; resolves `prompt()` on IAC EOR/GA. */
export class BenchTerminal {
  private parser = new TelnetParser({ maxSubnegotiationBytes: 1 << 20 });
  private inflate?: zlib.Inflate;
  private waiting?: (text: string) => void;
  private expect?: string[];
  private since = '';
  text = '';

  constructor(
    readonly socket: net.Socket,
    private readonly mccp: boolean,
  ) {
    socket.on('data', (chunk: Buffer) => (this.inflate ? this.inflate.write(chunk) : this.feed(chunk)));
    socket.on('error', () => undefined);
  }

  /**
   * Resolves at the next prompt, or with `expect` at the first prompt after text containing one of its strings (case
   * ignored; a prompt also follows what the player merely witnessed, such as others' speech, which is not the answer
   * to a command). Resolves with the text since the call (lower case, without colours) when `expect` is given.
   */
  prompt(expect?: string[]): Promise<string> {
    this.expect = expect?.map((text) => text.toLowerCase());
    this.since = '';
    return new Promise((resolve) => (this.waiting = resolve));
  }

  line(text: string): void {
    this.socket.write(`${text}\r\n`);
  }

  private feed(chunk: Buffer): void {
    for (const token of this.parser.feed(chunk)) {
      if (token.kind === 'data') {
        const text = token.bytes.toString();
        this.text = (this.text + text).slice(-200);
        if (this.expect) {
          // eslint-disable-next-line no-control-regex
          this.since = (this.since + text.replace(/\x1b\[[0-9;]*m/g, '').toLowerCase()).slice(-4000);
        }
      } else if (token.kind === 'command' && (token.command === EOR_CMD || token.command === GA)) {
        if (this.expect && !this.expect.some((text) => this.since.includes(text))) continue;
        const waiting = this.waiting;
        this.waiting = undefined;
        this.expect = undefined;
        waiting?.(this.since);
      } else if (token.kind === 'negotiate') {
        const yes = [Option.GMCP, Option.EOR, ...(this.mccp ? [Option.MCCP2] : [])].includes(
          token.option as 201,
        );
        if (token.verb === WILL) this.socket.write(negotiation(yes ? DO : DONT, token.option));
        else if (token.verb === DO) this.socket.write(negotiation(WONT, token.option));
      } else if (token.kind === 'subnegotiation' && token.option === Option.MCCP2) {
        this.parser = new TelnetParser({ maxSubnegotiationBytes: 1 << 20 });
        const inflate = zlib.createInflate({ windowBits: 15 });
        inflate.on('data', (plain: Buffer) => this.feed(plain));
        this.inflate = inflate;
        const marker = Buffer.of(255, 250, Option.MCCP2, 255, 240);
        const rest = chunk.subarray(chunk.indexOf(marker) + marker.length);
        if (rest.length) inflate.write(rest);
        return;
      }
    }
  }
}
