import type { AddressInfo, Server } from 'node:net';

/** Binds `server` to `host:port` (0 picks a free port); resolves with the bound port, rejects on a bind error. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Formats a host for a URL authority (IPv6 literals in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
