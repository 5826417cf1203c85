import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake endpoint answers: a reply, an HTTP error status, a body that is not JSON, or never. */
export type FakeChatMode =
  | { kind: 'ok'; content: string }
  | { kind: 'status'; status: number }
  | { kind: 'garbage' }
  | { kind: 'stall' };

/** Request log and controls of a running fake OpenAI-compatible chat server. */
export interface FakeChatServer {
  url: string;
  requests: { model: string; messages: { role: string; content: string }[]; authorization?: string }[];
  /** Modes for the next requests, consumed in order; then `fallback` applies. */
  script: FakeChatMode[];
  fallback: FakeChatMode;
  close(): Promise<void>;
}

/** Starts a fake `POST /v1/chat/completions` on 127.0.0.1, a random port. */
export async function startFakeChatServer(content = 'A fake answer [1].'): Promise<FakeChatServer> {
  const stalled = new Set<ServerResponse>();
  const state: Omit<FakeChatServer, 'url' | 'close'> = {
    requests: [],
    script: [],
    fallback: { kind: 'ok', content },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString('utf8')));
    req.on('end', () => {
      const parsed = JSON.parse(body) as FakeChatServer['requests'][number];
      state.requests.push({
        model: parsed.model,
        messages: parsed.messages,
        authorization: req.headers.authorization,
      });
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
      const reply = {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: mode.content } }],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
