import { Client } from '@colyseus/sdk';
import { Redis } from 'ioredis';
import type { Cluster } from './cluster';

/** The process id hosting each area room, from the Colyseus room listings in Redis database `redisDb`. */
export async function roomHosts(redisDb: number): Promise<Map<string, string>> {
  const redis = new Redis(`redis://127.0.0.1:6379/${redisDb}`);
  try {
    const listings = await redis.hgetall('roomcaches');
    return new Map(
      Object.entries(listings).map(([roomId, json]) => [
        roomId,
        (JSON.parse(json) as { processId: string }).processId,
      ]),
    );
  } finally {
    redis.disconnect();
  }
}

/** The Colyseus process id a game process logged in its "game ready" line. */
export function gameProcessId(stdout: string[]): string | undefined {
  for (const line of stdout) {
    const parsed = JSON.parse(line) as { msg?: string; processId?: string };
    if (parsed.msg === 'game ready') return parsed.processId;
  }
  return undefined;
}

/**
 * A Colyseus SDK client that matchmakes at the game process `via` and opens each room socket
 * (`/<processId>/<roomId>?sessionId=…`) on the game process whose id the path names: what a proxy routing on the
 * process id does in front of several game processes (the platform sets no per-process public address).
 */
export function routedSdkClient(cluster: Cluster, via: string, token: string): Client {
  const ports = new Map<string, number>();
  for (const entry of cluster.processes.values()) {
    const processId = entry.role === 'game' ? gameProcessId(entry.server.stdout) : undefined;
    if (processId) ports.set(processId, entry.port);
  }
  const client = new Client(cluster.processes.get(via)!.url, {
    urlBuilder: (url) => {
      const port = ports.get(url.pathname.split('/')[1] ?? '');
      if (port !== undefined) url.port = String(port);
      return url.toString();
    },
  });
  client.auth.token = token;
  return client;
}
