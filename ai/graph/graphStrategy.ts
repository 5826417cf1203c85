import { hitFromChunk, type ChunkLookup } from '../retrieval/chunkLookup';
import { DEFAULT_SEARCH_LIMIT, type SearchStrategy } from '../retrieval/hit';
import { expandQueryTerms } from '../text/synonyms';
import { analyze, queryTerms } from '../text/terms';
import type { GraphIndex } from './graphIndex';

/** Graph search settings. Defaults: 30 seed entities, 8 neighbours each at half weight, community weight 0.3. */
export interface GraphSearchOptions {
  seeds: number;
  neighbours: number;
  hopWeight: number;
  communityWeight: number;
  /** Entities mentioned in more chunks than this are read only this far (they say little about any one chunk). */
  maxChunksPerEntity: number;
}

const DEFAULTS: GraphSearchOptions = {
  seeds: 30,
  neighbours: 8,
  hopWeight: 0.5,
  communityWeight: 0.3,
  maxChunksPerEntity: 300,
};

/**
 * GRAPH: query entities → their 1-hop neighbourhood → the chunks that mention them, plus community search for
 * broad questions. Entities match by their terms (WordNet synonyms of the query's words count half), scored
 * by the idf mass they match and how much of their own name the query covers; each seed passes half its
 * score to its strongest co-occurrence neighbours. The community (any level) whose title and summary best
 * match the query lends its members a share of the score, so an EXPLORATORY question reaches the chunks
 * about its topic even when it names none of them. A chunk scores the sum of its entities' scores, each
 * damped by how common the entity is (1 / ln(2 + mention_count)). Hits carry the entities that led to them.
 */
export function createGraphStrategy(
  deps: { index: GraphIndex; chunks: ChunkLookup; idf: (term: string) => number },
  options: Partial<GraphSearchOptions> = {},
): SearchStrategy {
  const o = { ...DEFAULTS, ...options };
  return async (query, searchOptions = {}) => {
    const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
    const { graph, communities } = deps.index;
    const terms = queryTerms(query);
    if (terms.size === 0 || limit <= 0 || graph.entities.size === 0) return [];
    const weight = new Map<string, number>();
    for (const term of terms) weight.set(term, deps.idf(term));
    for (const synonyms of expandQueryTerms(query).values()) {
      for (const s of synonyms) if (!weight.has(s)) weight.set(s, deps.idf(s) / 2);
    }
    const mass = [...terms].reduce((sum, t) => sum + weight.get(t)!, 0) || 1;

    const entityScore = new Map<string, number>();
    for (const term of weight.keys()) {
      for (const key of graph.entitiesWithTerm(term)) {
        if (entityScore.has(key)) continue;
        const own = key.split(' ');
        const matched = own.filter((t) => weight.has(t));
        const score =
          (matched.reduce((sum, t) => sum + weight.get(t)!, 0) / mass) * (matched.length / own.length);
        entityScore.set(key, score);
      }
    }
    const seeds = [...entityScore.entries()].sort((a, b) => b[1] - a[1]).slice(0, o.seeds);
    const scores = new Map(seeds);
    for (const [key, score] of seeds) {
      const edges = [...graph.neighbours(key).entries()].sort((a, b) => b[1] - a[1]).slice(0, o.neighbours);
      const strongest = edges[0]?.[1] ?? 1;
      for (const [other, w] of edges)
        scores.set(other, (scores.get(other) ?? 0) + score * o.hopWeight * (w / strongest));
    }
    let bestCommunity: { members: string[]; score: number } | undefined;
    for (const community of communities.all()) {
      const words = new Set(analyze(`${community.title} ${community.summary}`));
      const score = [...weight.entries()].reduce((sum, [t, w]) => sum + (words.has(t) ? w : 0), 0) / mass;
      if (score > (bestCommunity?.score ?? 0)) bestCommunity = { members: community.members, score };
    }
    for (const key of bestCommunity?.members ?? []) {
      scores.set(key, (scores.get(key) ?? 0) + o.communityWeight * bestCommunity!.score);
    }

    const chunkScore = new Map<string, { score: number; entities: Array<[string, number]> }>();
    for (const [key, score] of scores) {
      const node = graph.entities.get(key);
      if (!node || score <= 0) continue;
      const damped = score / Math.log(2 + node.mentionCount);
      let read = 0;
      for (const [chunkId, count] of node.chunks) {
        if (read++ >= o.maxChunksPerEntity) break;
        const entry = chunkScore.get(chunkId) ?? { score: 0, entities: [] };
        entry.score += damped * (1 + Math.log(count));
        entry.entities.push([node.name, damped]);
        chunkScore.set(chunkId, entry);
      }
    }
    const ranked = [...chunkScore.entries()].sort((a, b) => b[1].score - a[1].score);
    const indexes = searchOptions.indexes?.length ? new Set(searchOptions.indexes) : undefined;
    const snippetTerms = searchOptions.snippets === false ? undefined : terms;
    const hits = [];
    for (let start = 0; start < ranked.length && hits.length < limit; start += limit * 2) {
      const page = ranked.slice(start, start + limit * 2);
      const chunks = await deps.chunks.getChunks(page.map(([id]) => id));
      for (const [id, entry] of page) {
        const chunk = chunks.get(id);
        if (!chunk || (indexes && !indexes.has(chunk.index)) || hits.length >= limit) continue;
        const entities = entry.entities
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([name]) => name);
        hits.push({ ...hitFromChunk(chunk, entry.score, 'graph', snippetTerms), entities });
      }
    }
    return hits;
  };
}
