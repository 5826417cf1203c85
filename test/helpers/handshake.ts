import type WebSocket from 'ws';

/**
 * Resolves once `socket` is open; a refused handshake rejects with an Error carrying the answer's `status` and its
 * parsed problem `body` (what `refusalOf` reads).
 */
export function socketOpened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error('refused'), {
            status: res.statusCode,
            body: text ? JSON.parse(text) : undefined,
          }),
        ),
      );
    });
    socket.once('error', reject);
  });
}
