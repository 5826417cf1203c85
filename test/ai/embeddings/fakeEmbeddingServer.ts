import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake endpoint answers: embeddings, an HTTP error status, a body that is not JSON, or never. */
export type FakeMode =
  { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'garbage' } | { kind: 'stall' };

/** Request log and controls of a running fake OpenAI-compatible embeddings server. */
export interface FakeEmbeddingServer {
  url: string;
  requests: { model: string; input: string[]; authorization?: string }[];
  /** Modes for the next requests, consumed in order; then `fallback` applies. */
  script: FakeMode[];
  fallback: FakeMode;
  close(): Promise<void>;
}

/** A vector that encodes the text's length, so tests can tell which input a vector belongs to. */
export function fakeVector(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => (i === 0 ? text.length : i / dimensions));
}

/** Starts a fake `POST /v1/embeddings` on 127.0.0.1, a random port. */
export async function startFakeEmbeddingServer(dimensions: number): Promise<FakeEmbeddingServer> {
  const stalled = new Set<ServerResponse>();
  const state: Omit<FakeEmbeddingServer, 'url' | 'close'> = {
    requests: [],
    script: [],
    fallback: { kind: 'ok' },
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; input: string[] };
      state.requests.push({ ...parsed, authorization: req.headers.authorization });
      const mode = state.script.shift() ?? state.fallback;
      if (mode.kind === 'stall') {
        stalled.add(res);
        return;
      }
      if (mode.kind === 'status') {
        res
          .writeHead(mode.status, { 'content-type': 'application/json' })
          .end('{"error":{"message":"boom"}}');
        return;
      }
      if (mode.kind === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
        return;
      }
      const data = parsed.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: fakeVector(text, dimensions),
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data, model: parsed.model }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
