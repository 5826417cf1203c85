import { RaptorTree } from '../../../ai/raptor/raptorTree';
import { buildChunk } from '../factories';

const DIMS = 128;
const CLUSTERS = 100;

/** A text's vector: the unit vector of the first cluster it names (`c<k>`), so clusters are orthogonal. */
async function embed(texts: string[]): Promise<Float32Array[]> {
  return texts.map((text) => {
    const vector = new Float32Array(DIMS);
    vector[Number(/c(\d+)/.exec(text)?.[1] ?? 0) % DIMS] = 1;
    return vector;
  });
}

/** One document per cluster, 8 chunks each, every chunk's text naming its cluster. */
function clusterDocument(cluster: number, chunks = 8, tag = 'leaf') {
  const documentId = `doc-c${cluster}-${tag}`;
  return {
    documentId,
    chunks: Array.from({ length: chunks }, (_, i) =>
      buildChunk({
        documentId,
        source: `docs/c${cluster}-${tag}.md`,
        ordinal: i,
        text: `c${cluster} ${tag} ${i}`,
      }),
    ),
  };
}

describe('RaptorTree', () => {
  it('files a new leaf under its nearest parent when the level is searched from the top (a wide level)', async () => {
    let ids = 0;
    const tree = new RaptorTree('docs', {
      embed,
      // A summary names its first child's cluster, so it embeds where its children do.
      summarize: async (members) => members[0].text,
      newId: (index, level) => `${index}:${level}:${ids++}`,
    });
    await tree.apply(Array.from({ length: CLUSTERS }, (_, c) => clusterDocument(c)));
    const levels = tree.nodesPerLevel();
    // 800 leaves, 100 parents (one per cluster: k-means finds them), then levels of 13 and 2.
    expect(levels[1]).toBe(CLUSTERS);
    expect(levels.length).toBeGreaterThanOrEqual(3);

    // One new chunk per cluster, in one update (a tenth of the leaves: no rebuild).
    const added = Array.from({ length: CLUSTERS }, (_, c) => clusterDocument(c, 1, 'new'));
    await tree.apply(added);

    for (let c = 0; c < CLUSTERS; c++) {
      const fresh = tree.nodes.get(added[c].chunks[0].id)!;
      const sibling = tree.nodes.get(clusterDocument(c).chunks[0].id)!;
      expect(fresh.parent).toBe(sibling.parent);
    }
    expect(tree.nodesPerLevel()[1]).toBe(CLUSTERS);
  });
});
