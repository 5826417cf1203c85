import http from 'node:http';

/** A request of a bench to its platform on 127.0.0.1: the status and the body's text. */
export interface BenchResponse {
  status: number;
  body: string;
}

/**
 * Sends `method route` to the bench platform on 127.0.0.1:`port` through `agent` (keep-alive), with `body` as JSON
 * when given and `token` as bearer. Node's `http` client, not `fetch`: it costs the load process a fraction of the
 * CPU, which on a small machine the load process takes from the server it measures.
 */
export function sendJson(
  agent: http.Agent,
  port: number,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<BenchResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: http.OutgoingHttpHeaders = {};
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: route, method, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** POSTs `body` as JSON to `route` of the bench platform on 127.0.0.1:`port`. */
export function postJson(
  agent: http.Agent,
  port: number,
  route: string,
  body: unknown,
): Promise<BenchResponse> {
  return sendJson(agent, port, 'POST', route, body);
}
