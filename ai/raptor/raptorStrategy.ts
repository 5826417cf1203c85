import { hitFromChunk, type ChunkLookup } from '../retrieval/chunkLookup';
import { DEFAULT_SEARCH_LIMIT, type Hit, type SearchStrategy } from '../retrieval/hit';
import { buildSnippet } from '../retrieval/snippet';
import { queryTerms } from '../text/terms';
import type { RaptorIndex } from './raptorIndex';
import type { RaptorNode } from './raptorNode';
import type { RaptorTree } from './raptorTree';
import { cosine } from './sphericalKMeans';

/** Collapsed-tree search settings. Default: nodes ranked 3 × the limit deep before chunks are deduplicated. */
export interface RaptorSearchOptions {
  depthFactor: number;
}

/**
 * RAPTOR, collapsed-tree retrieval: the query is embedded in the trees' space and compared with every node
 * of every level of the chosen indexes' trees at once (chunks and summaries alike), best first. A hit is
 * always a chunk, so fusion, reranking, the cache and citations keep working on chunk ids:
 * - a leaf (`level` 0) is its chunk;
 * - a summary node (`level` ≥ 1) is answered by the chunk under it that matches the query best (a greedy
 *   descent, best child at each level), with the node's cosine as `score`, the node's `level`, and a snippet
 *   cut from the node's **summary** (so a broad question shows what the branch is about); `text` stays the
 *   chunk's text, the passage /brain/ask quotes.
 * A chunk reached several ways keeps its best-ranked node.
 */
export function createRaptorStrategy(
  deps: { index: RaptorIndex; chunks: ChunkLookup },
  options: Partial<RaptorSearchOptions> = {},
): SearchStrategy {
  const depthFactor = options.depthFactor ?? 3;
  return async (query, searchOptions = {}) => {
    const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
    if (limit <= 0 || query.trim() === '') return [];
    const wanted = searchOptions.indexes?.length ? new Set(searchOptions.indexes) : undefined;
    const trees = [...deps.index.trees.values()].filter((t) => !wanted || wanted.has(t.index));
    if (trees.every((tree) => tree.nodes.size === 0)) return [];
    const vector = await deps.index.embedQuery(query);
    const ranked = topNodes(trees, vector, limit * depthFactor);
    const picks: Array<{ node: RaptorNode; chunkId: string; score: number }> = [];
    const seen = new Set<string>();
    for (const { tree, node, score } of ranked) {
      const chunkId = bestLeaf(tree, node, vector);
      if (!chunkId || seen.has(chunkId)) continue;
      seen.add(chunkId);
      picks.push({ node, chunkId, score });
      if (picks.length >= limit) break;
    }
    const chunks = await deps.chunks.getChunks(picks.map((p) => p.chunkId));
    const terms = searchOptions.snippets === false ? undefined : queryTerms(query);
    const hits: Hit[] = [];
    for (const { node, chunkId, score } of picks) {
      const chunk = chunks.get(chunkId);
      if (!chunk) continue;
      const hit = hitFromChunk(chunk, score, 'raptor', terms);
      if (node.level > 0 && terms) hit.snippet = buildSnippet(node.text, terms);
      hits.push({ ...hit, level: node.level });
    }
    return hits;
  };
}

/** The `depth` nodes most similar to the query over all levels of the trees. */
function topNodes(
  trees: RaptorTree[],
  vector: Float32Array,
  depth: number,
): Array<{ tree: RaptorTree; node: RaptorNode; score: number }> {
  const scored: Array<{ tree: RaptorTree; node: RaptorNode; score: number }> = [];
  for (const tree of trees) {
    for (const node of tree.nodes.values())
      if (node.vector.length === vector.length)
        scored.push({ tree, node, score: cosine(vector, node.vector) });
  }
  scored.sort((a, b) => b.score - a.score || a.node.level - b.node.level);
  return scored.slice(0, depth);
}

/** The leaf under `node` reached by following, at each level, the child most similar to the query. */
function bestLeaf(tree: RaptorTree, node: RaptorNode, vector: Float32Array): string | undefined {
  let current: RaptorNode | undefined = node;
  while (current && current.level > 0) {
    let best: RaptorNode | undefined;
    let bestScore = -Infinity;
    for (const id of current.children) {
      const child = tree.nodes.get(id);
      if (!child) continue;
      const score = cosine(vector, child.vector);
      if (score > bestScore) {
        best = child;
        bestScore = score;
      }
    }
    current = best;
  }
  return current?.id;
}
