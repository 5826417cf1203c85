/** A minimal MUD client for the benches: the telnet side of bench/telnetPlayers.ts and bench/mudRoom.ts. */
import type net from 'node:net';
import zlib from 'node:zlib';
import { DO, DONT, EOR_CMD, GA, Option, WILL, WONT } from '../../services/mud/telnet/telnetCodes';
import { TelnetParser, negotiation } from '../../services/mud/telnet/telnetParser';

/** One bench client: answers GMCP, EOR (and MCCP2) yes and everything else no; resolves `prompt()` on IAC EOR/GA. */
export class BenchTerminal {
  private parser = new TelnetParser({ maxSubnegotiationBytes: 1 << 20 });
  private inflate?: zlib.Inflate;
  private waiting?: () => void;
  text = '';

  constructor(
    readonly socket: net.Socket,
    private readonly mccp: boolean,
  ) {
    socket.on('data', (chunk: Buffer) => (this.inflate ? this.inflate.write(chunk) : this.feed(chunk)));
    socket.on('error', () => undefined);
  }

  /** Resolves at the next prompt. */
  prompt(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  line(text: string): void {
    this.socket.write(`${text}\r\n`);
  }

  private feed(chunk: Buffer): void {
    for (const token of this.parser.feed(chunk)) {
      if (token.kind === 'data') this.text = (this.text + token.bytes.toString()).slice(-200);
      else if (token.kind === 'command' && (token.command === EOR_CMD || token.command === GA)) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting?.();
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
