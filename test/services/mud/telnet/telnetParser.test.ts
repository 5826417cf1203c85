import { DO, GA, IAC, NOP, Option, SB, SE, WILL } from '../../../../services/mud/telnet/telnetCodes';
import {
  TelnetParser,
  type TelnetToken,
  escapeIac,
  negotiation,
  subnegotiation,
} from '../../../../services/mud/telnet/telnetParser';

/** Feeds `bytes` one chunk per element and merges adjacent data tokens (chunking must not change the meaning). */
function parse(chunks: Buffer[], parser = new TelnetParser()): TelnetToken[] {
  const tokens = chunks.flatMap((chunk) => parser.feed(chunk));
  const merged: TelnetToken[] = [];
  for (const token of tokens) {
    const last = merged.at(-1);
    if (token.kind === 'data' && last?.kind === 'data') last.bytes = Buffer.concat([last.bytes, token.bytes]);
    else merged.push(token.kind === 'data' ? { kind: 'data', bytes: Buffer.from(token.bytes) } : token);
  }
  return merged;
}

/** Every way of cutting `bytes` in two. */
function splits(bytes: Buffer): Buffer[][] {
  return Array.from({ length: bytes.length + 1 }, (_, i) => [bytes.subarray(0, i), bytes.subarray(i)]);
}

describe('TelnetParser', () => {
  const stream = Buffer.concat([
    Buffer.from('look'),
    Buffer.of(IAC, IAC),
    Buffer.from('x\r\n'),
    negotiation(WILL, Option.NAWS),
    subnegotiation(Option.NAWS, Buffer.of(0, 255, 0, 24)),
    Buffer.of(IAC, GA, IAC, NOP),
    subnegotiation(Option.GMCP, 'Core.Hello {"client":"t"}'),
  ]);
  const expected: TelnetToken[] = [
    { kind: 'data', bytes: Buffer.concat([Buffer.from('look'), Buffer.of(IAC), Buffer.from('x\r\n')]) },
    { kind: 'negotiate', verb: WILL, option: Option.NAWS },
    { kind: 'subnegotiation', option: Option.NAWS, data: Buffer.of(0, 255, 0, 24) },
    { kind: 'command', command: GA },
    { kind: 'command', command: NOP },
    { kind: 'subnegotiation', option: Option.GMCP, data: Buffer.from('Core.Hello {"client":"t"}') },
  ];

  it('finds data (IAC IAC unescaped), negotiations, commands and subnegotiations (255 in NAWS escaped)', () => {
    expect(parse([stream])).toEqual(expected);
  });

  it('gives the same tokens wherever the stream is cut, and byte by byte', () => {
    for (const chunks of splits(stream)) expect(parse(chunks)).toEqual(expected);
    expect(parse([...stream].map((byte) => Buffer.of(byte)))).toEqual(expected);
  });

  it('drops an oversized subnegotiation whole and resumes after its IAC SE', () => {
    const parser = new TelnetParser({ maxSubnegotiationBytes: 16 });
    const tokens = parse([subnegotiation(Option.GMCP, 'x'.repeat(17)), Buffer.from('ok')], parser);
    expect(tokens).toEqual([{ kind: 'data', bytes: Buffer.from('ok') }]);
    expect(parse([subnegotiation(Option.GMCP, 'y'.repeat(16))], parser)).toEqual([
      { kind: 'subnegotiation', option: Option.GMCP, data: Buffer.from('y'.repeat(16)) },
    ]);
  });

  it('abandons a subnegotiation broken by IAC <command> and reads on', () => {
    const tokens = parse([Buffer.of(IAC, SB, Option.GMCP, 65, IAC, DO), Buffer.from('hi')]);
    expect(tokens).toEqual([{ kind: 'data', bytes: Buffer.from('hi') }]);
  });

  it('escapes 255 in data and subnegotiations, and nothing else', () => {
    expect(escapeIac(Buffer.from('plain'))).toEqual(Buffer.from('plain'));
    expect(escapeIac(Buffer.of(1, IAC, 2))).toEqual(Buffer.of(1, IAC, IAC, 2));
    expect(subnegotiation(Option.NAWS, Buffer.of(IAC))).toEqual(
      Buffer.of(IAC, SB, Option.NAWS, IAC, IAC, IAC, SE),
    );
  });
});
