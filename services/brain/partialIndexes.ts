import type { BrainCore } from './brainCore';

/**
 * Why a search that used `strategies` answered from a partial index (searchable first, enriched after): the vectors,
 * graph or RAPTOR trees still catching up with acknowledged ingests. Read from this process's in-memory state (no
 * store round trip on the search path). Empty when every index the strategies read is caught up.
 */
export function partialIndexReasons(
  core: Pick<BrainCore, 'backfill' | 'graph' | 'raptor'>,
  strategies: readonly string[],
): string[] {
  const reasons: string[] = [];
  const uses = (...names: string[]) => names.some((name) => strategies.includes(name));
  // Each index's state is read only when the search used it: a fulltext-only route (SIMPLE) reads none, and the
  // stats (rates over the last minute, communities and tree levels) cost a v2 SIMPLE search ~5 % of its CPU.
  if (uses('semantic', 'hybrid', 'hyde')) {
    const vectors = core.backfill.stats();
    if (vectors.state === 'running' || vectors.state === 'failing')
      reasons.push(
        vectors.state === 'failing'
          ? 'vectors: recent ingests are not embedded yet (the embedding chain is failing; retrying)'
          : 'vectors: recent ingests are still being embedded',
      );
  }
  if (uses('graph')) {
    const graph = core.graph.stats();
    if (graph.state === 'building' || graph.pendingDocuments > 0)
      reasons.push(`graph: ${graph.pendingDocuments} documents are not in the knowledge graph yet`);
  }
  if (uses('raptor')) {
    const raptor = core.raptor.stats();
    if (raptor.state === 'building' || raptor.pendingDocuments > 0)
      reasons.push(`raptor: ${raptor.pendingDocuments} documents are not in the trees yet`);
  }
  return reasons;
}

/** A presented search answer, marked degraded with the reasons when it came from a partial index. */
export function withPartialIndexes<T extends { degraded: boolean }>(
  body: T,
  reasons: string[],
): T & { degraded_reasons?: string[] } {
  return reasons.length === 0 ? body : { ...body, degraded: true, degraded_reasons: reasons };
}
