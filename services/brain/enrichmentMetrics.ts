import client from 'prom-client';
import { registry } from '../../platform/metrics';
import type { BrainStats } from '../../ai/corpus/corpusStats';

type Enrichment = NonNullable<BrainStats['enrichment']>;
const INDEXES = ['vectors', 'graph', 'raptor'] as const;

/** Where the gauges read at scrape time: the brain core of this process (the latest one opened), if any. */
let source: (() => Promise<Enrichment | undefined>) | undefined;

/** Points the enrichment gauges at this process's brain (services/brain/index.ts, once the core is open). */
export function exposeEnrichment(read: () => Promise<Enrichment | undefined>): void {
  source = read;
}

async function current(): Promise<Enrichment | undefined> {
  try {
    return await source?.();
  } catch {
    return undefined;
  }
}

/**
 * Background enrichment still owed, per index (vectors in chunks, graph and raptor in documents). The alert
 * BrainEnrichmentBacklogGrowing fires when it keeps growing for 15 minutes (ingest outpaces enrichment).
 */
export const enrichmentPending = new client.Gauge({
  name: 'brain_enrichment_pending',
  help: 'Background enrichment owed after acknowledged ingests, by index (vectors: chunks; graph, raptor: documents)',
  labelNames: ['index'] as const,
  registers: [registry],
  async collect() {
    const stats = await current();
    for (const index of INDEXES) this.set({ index }, stats?.[index].pending ?? 0);
  },
});

/** Age of the oldest owed enrichment, by index (0 when nothing is owed). */
export const enrichmentOldestSeconds = new client.Gauge({
  name: 'brain_enrichment_oldest_pending_seconds',
  help: 'Age in seconds of the oldest background enrichment still owed, by index',
  labelNames: ['index'] as const,
  registers: [registry],
  async collect() {
    const stats = await current();
    for (const index of INDEXES) {
      const oldest = stats?.[index].oldestPendingAt;
      this.set({ index }, oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0);
    }
  },
});

/** Enrichment done since the process started, by index (a counter as gauges go: it only grows). */
export const enrichmentDone = new client.Gauge({
  name: 'brain_enrichment_done',
  help: 'Background enrichment done since start-up, by index (vectors: chunks; graph, raptor: documents)',
  labelNames: ['index'] as const,
  registers: [registry],
  async collect() {
    const stats = await current();
    for (const index of INDEXES) this.set({ index }, stats?.[index].done ?? 0);
  },
});
