import net from 'node:net';
import request from 'supertest';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** What a raw connection received: status, lower-cased headers, body, and whether it ended in a reset. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  reset: boolean;
}

/** Sends `bytes` on a fresh TCP connection and reads until the server closes it (10 s at most). */
function sendRaw(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => {
          const at = line.indexOf(':');
          return [line.slice(0, at).toLowerCase(), line.slice(at + 1).trim()];
        }),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), reset });
    });
    socket.write(bytes);
  });
}

const get = (target: string, headers: string[] = []) =>
  [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, 'Connection: close', '', ''].join('\r\n');

/**
 * Requests Node's HTTP parser refuses before Express sees them are answered with problem JSON through the server's
 * `clientError` event: a header section over 16 KB is 431 HEADERS_TOO_LARGE, a malformed request 400
 * MALFORMED_REQUEST; the whole answer arrives (no reset while the client is still sending) and the server stays up.
 */
describe('requests the HTTP parser refuses', () => {
  let server: TestPlatform;
  let port: number;

  beforeAll(async () => {
    server = await startTestPlatform();
    port = server.platform.port;
  });
  afterAll(() => server.stop());

  const expectProblem = (answer: RawAnswer, status: number, code: string) => {
    expect(answer.reset).toBe(false);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(answer.body)));
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ status, code, type: `/problems/${code.toLowerCase().replace(/_/g, '-')}` });
    expect(body.requestId).toBe(answer.headers['x-request-id']);
    return body;
  };

  it.each([
    ['a 100 KB query string', get(`/healthz?q=${'a'.repeat(100_000)}`)],
    ['a 40 KB cookie', get('/healthz', [`Cookie: session=${'c'.repeat(40_000)}`])],
    ['a 40 KB bearer token', get('/auth/me', [`Authorization: Bearer ${'t'.repeat(40_000)}`])],
    [
      '200 headers of 100 bytes',
      get(
        '/healthz',
        Array.from({ length: 200 }, (_, i) => `X-H${i}: ${'v'.repeat(95)}`),
      ),
    ],
  ])('answers %s with 431 HEADERS_TOO_LARGE as problem JSON', async (_name, bytes) => {
    const body = expectProblem(await sendRaw(port, bytes), 431, 'HEADERS_TOO_LARGE');
    expect(body).toMatchObject({
      title: 'Request Header Fields Too Large',
      detail:
        'The request line and headers exceed the server limit (16 KB): shorten the URL, cookies or tokens',
    });
    expect(JSON.stringify(body)).not.toContain('ccccc');
  });

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header without a colon', get('/healthz', ['Broken header line'])],
    ['a space before the colon', get('/healthz', ['X-Bad : value'])],
    ['a NUL in a header value', get('/healthz', ['X-Value: a\u0000b'])],
    ['an unknown HTTP version', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n'],
    [
      'both Content-Length and chunked',
      'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'binary bytes',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]),
    ],
  ])('answers %s with 400 MALFORMED_REQUEST as problem JSON', async (_name, bytes) => {
    const body = expectProblem(await sendRaw(port, bytes), 400, 'MALFORMED_REQUEST');
    expect(body).toMatchObject({ title: 'Bad Request', detail: 'The request is not valid HTTP/1.1' });
  });

  it('answers a malformed request after a pipelined good one, in order, on the same connection', async () => {
    const keepAlive = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const answer = await sendRaw(port, `${keepAlive}NOT HTTP AT ALL\r\n\r\n`);
    expect(answer.reset).toBe(false);
    expect(answer.status).toBe(200);
    const second = answer.body.slice(answer.body.indexOf('HTTP/1.1 '));
    expect(second).toMatch(/^HTTP\/1.1 400 Bad Request\r\n/);
    expect(second).toContain('Content-Type: application/problem+json');
    expect(second).toContain('"code":"MALFORMED_REQUEST"');
  });

  it('logs only the parser code, and stays healthy after a burst of refused requests', async () => {
    const secret = `Bearer ${'s'.repeat(20_000)}SECRET`;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sendRaw(port, i % 2 ? 'NOPE\r\n\r\n' : get('/healthz', [`Authorization: ${secret}`])),
      ),
    );
    const lines = server.logs.lines.filter((line) => line.msg === 'client error');
    expect(lines.length).toBeGreaterThanOrEqual(20);
    expect(lines[0]).toMatchObject({
      level: 'warn',
      status: expect.any(Number),
      code: expect.stringMatching(/^HPE_/),
    });
    expect(JSON.stringify(server.logs.lines)).not.toContain('SECRET');
    expect((await request(server.url).get('/healthz')).status).toBe(200);
  });
});
