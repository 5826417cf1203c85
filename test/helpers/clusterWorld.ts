import { Redis } from 'ioredis';

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
