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
