import type { ReadinessCheck } from './readiness';

/** Readiness of a Qdrant server through its `/readyz` endpoint (served by real Qdrant and the embedded engine). */
export function qdrantCheck(url: string, apiKey: string | undefined): ReadinessCheck {
  return {
    name: 'qdrant',
    async check() {
      const response = await fetch(new URL('/readyz', url), { headers: apiKey ? { 'api-key': apiKey } : {} });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    },
  };
}

/**
 * Start-up check of a configured QDRANT_URL, like the first connection of MongoDB and Redis: the server must
 * answer `/readyz` within `timeoutMs`, otherwise start-up fails naming the variable.
 */
export async function assertQdrantReachable(url: string, apiKey: string | undefined, timeoutMs: number) {
  try {
    await Promise.race([
      qdrantCheck(url, apiKey).check(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
  } catch (error) {
    throw new Error(`QDRANT_URL: cannot reach Qdrant (${(error as Error).message})`, { cause: error });
  }
}
