import net from 'node:net';
import zlib from 'node:zlib';
import { TelnetConnection, type ConnectionHandler } from '../../../../services/mud/telnet/telnetConnection';
import {
  CHARSET_ACCEPTED,
  CHARSET_REQUEST,
  DO,
  DONT,
  EOR_CMD,
  GA,
  IAC,
  Option,
  SB,
  SE,
  TTYPE_IS,
  TTYPE_SEND,
  WILL,
  WONT,
} from '../../../../services/mud/telnet/telnetCodes';
import { negotiation, subnegotiation } from '../../../../services/mud/telnet/telnetParser';

/** A TelnetConnection on one end of a loopback TCP pair, the raw client socket on the other. */
async function pair(limits = {}) {
  const events: string[] = [];
  const handler: ConnectionHandler = {
    line: (line) => events.push(line.kind === 'line' ? `line:${line.text}` : 'overlong'),
    gmcp: (name) => events.push(`gmcp:${name}`),
    gmcpReady: () => events.push('gmcpReady'),
    msspRequested: () => events.push('mssp'),
    abuse: (reason) => events.push(`abuse:${reason}`),
  };
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
  const connection = new TelnetConnection(await accepted, handler, limits);
  server.close();
  let received = Buffer.alloc(0);
  client.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(check()).toBe(true);
  };
  return { connection, client, events, received: () => received, until };
}

const has = (buffer: Buffer, bytes: Buffer) => buffer.indexOf(bytes) >= 0;

describe('TelnetConnection', () => {
  it('sends what one turn writes (text, GMCP, prompt) in one write to the socket, in order', async () => {
    const { connection, client, received, until } = await pair();
    const socket = connection.socket as net.Socket & { _writev?: unknown; _write: unknown };
    const writev = jest.spyOn(socket, '_writev' as never);
    const write = jest.spyOn(socket, '_write' as never);
    connection.write('You see a square.\r\n');
    connection.write('Ann is here.\r\n');
    connection.prompt('> ');
    expect([writev.mock.calls.length, write.mock.calls.length]).toEqual([0, 0]);
    await until(() => has(received(), Buffer.from('> ')));
    expect(writev).toHaveBeenCalledTimes(1);
    expect(write).not.toHaveBeenCalled();
    expect(received().toString('latin1')).toBe('You see a square.\r\nAnn is here.\r\n> \xff\xf9');
    client.destroy();
  });

  it('ends prompts with GA, or with EOR once the client agreed', async () => {
    const { connection, client, events, received, until } = await pair();
    connection.start();
    connection.prompt('> ');
    await until(() => has(received(), Buffer.from([0x3e, 0x20, IAC, GA])));
    // Input is handled in order: once the line after DO EOR arrived, EOR is on.
    client.write(Buffer.concat([negotiation(DO, Option.EOR), Buffer.from('x\r\n')]));
    await until(() => events.includes('line:x'));
    connection.prompt('$ ');
    await until(() => has(received(), Buffer.from([0x24, 0x20, IAC, EOR_CMD])));
    client.destroy();
  });

  it('asks TTYPE up to three times (MTTS last), requests UTF-8 on DO CHARSET, and reads NAWS', async () => {
    const { connection, client, received, until } = await pair();
    connection.start();
    client.write(Buffer.concat([negotiation(WILL, Option.TTYPE), negotiation(DO, Option.CHARSET)]));
    const send = Buffer.of(IAC, SB, Option.TTYPE, TTYPE_SEND, IAC, SE);
    await until(() => has(received(), send));
    const request = subnegotiation(
      Option.CHARSET,
      Buffer.concat([Buffer.of(CHARSET_REQUEST), Buffer.from(';UTF-8')]),
    );
    await until(() => has(received(), request));
    for (const name of ['MUDLET', 'XTERM-256COLOR', 'MTTS 2825']) {
      client.write(subnegotiation(Option.TTYPE, Buffer.concat([Buffer.of(TTYPE_IS), Buffer.from(name)])));
    }
    client.write(
      subnegotiation(Option.CHARSET, Buffer.concat([Buffer.of(CHARSET_ACCEPTED), Buffer.from('UTF-8')])),
    );
    client.write(
      Buffer.concat([negotiation(WILL, Option.NAWS), subnegotiation(Option.NAWS, Buffer.of(0, 132, 0, 50))]),
    );
    await until(() => connection.width === 132);
    expect(connection.terminalTypes).toEqual(['MUDLET', 'XTERM-256COLOR', 'MTTS 2825']);
    expect(connection.mtts).toBe(2825);
    expect(connection.utf8Accepted).toBe(true);
    expect(received().toString('latin1').split(send.toString('latin1')).length - 1).toBe(3);
    client.destroy();
  });

  it('turns echo off and on around a password, and refuses DO ECHO it did not ask for', async () => {
    const { connection, client, received, until } = await pair();
    client.write(negotiation(DO, Option.ECHO));
    await until(() => has(received(), negotiation(WONT, Option.ECHO)));
    connection.echoOff();
    await until(() => has(received(), negotiation(WILL, Option.ECHO)));
    client.write(negotiation(DO, Option.ECHO));
    connection.echoOn();
    await until(
      () =>
        received().lastIndexOf(negotiation(WONT, Option.ECHO)) >
        received().indexOf(negotiation(WILL, Option.ECHO)),
    );
    client.destroy();
  });

  it('compresses after the MCCP2 marker, and after DONT MCCP2 sends the stream’s end before plain text', async () => {
    const { connection, client, received, until } = await pair();
    connection.start();
    client.write(negotiation(DO, Option.MCCP2));
    const marker = Buffer.of(IAC, SB, Option.MCCP2, IAC, SE);
    await until(() => has(received(), marker));
    connection.write('compressed line\r\n');
    client.write(negotiation(DONT, Option.MCCP2));
    await until(() => connection.compressing === false);
    connection.write('plain line\r\n');
    const plain = Buffer.concat([negotiation(WONT, Option.MCCP2), Buffer.from('plain line\r\n')]);
    await until(() => received().subarray(-plain.length).equals(plain));
    const after = received().subarray(received().indexOf(marker) + marker.length);
    const inflate = zlib.createInflate();
    const inflated: Buffer[] = [];
    inflate.on('data', (chunk: Buffer) => inflated.push(chunk));
    const ended = new Promise((resolve) => inflate.once('end', resolve));
    inflate.end(after.subarray(0, after.length - plain.length));
    await ended;
    expect(Buffer.concat(inflated).toString()).toBe('compressed line\r\n');
    client.destroy();
  });

  it('closes a connection that floods negotiation, saying why', async () => {
    const { client, events, received, until } = await pair({ negotiationsPerSecond: 10 });
    client.write(Buffer.concat(Array.from({ length: 11 }, () => negotiation(DO, 99))));
    await until(() => received().toString().includes('Too much telnet negotiation; closing.'));
    expect(events).toContain('abuse:negotiation_flood');
    client.destroy();
  });
});
