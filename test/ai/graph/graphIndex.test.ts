import { extractEntities } from '../../../ai/graph/entityExtractor';
import { GraphIndex } from '../../../ai/graph/graphIndex';
import { createGraphStrategy } from '../../../ai/graph/graphStrategy';
import { inProcessLouvain, workerLouvain } from '../../../ai/graph/louvainRunner';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { buildChunk, topicChunks } from '../factories';

async function buildIndex() {
  const fullText = new FullTextIndex();
  const index = new GraphIndex({ chunkText: (id) => fullText.get(id)?.text });
  fullText.onDocumentChange((documentId, chunks) => index.enqueue(documentId, chunks));
  fullText.replaceDocument(
    'doc-breaker',
    topicChunks('breaker', ['threshold', 'recovery', 'trial', 'gauge']),
  );
  fullText.replaceDocument(
    'doc-ledger',
    topicChunks('ledger', [
      'balance',
      'transfer',
      'escrow',
      'refund',
      'grant',
      'hold',
      'decay',
      'audit',
      'fee',
      'mint',
    ]),
  );
  await index.whenIdle();
  return { fullText, index };
}

describe('knowledge graph of the corpus', () => {
  it('extracts headings, code spans, identifiers and repeated key phrases', () => {
    const entities = extractEntities(
      buildChunk({
        headingPath: ['Guide', '3.2 Circuit breaker'],
        text: 'The `CircuitBreaker` opens. Half open trials, then half open trials again. Read `open()`. See BRAIN_BREAKER_FAILURE_THRESHOLD.',
      }),
    );

    expect(entities.map((e) => [e.name, e.type])).toEqual(
      expect.arrayContaining([
        ['Circuit breaker', 'heading'],
        ['CircuitBreaker', 'symbol'],
        ['open()', 'code'],
        ['BRAIN_BREAKER_FAILURE_THRESHOLD', 'symbol'],
        ['half open trials', 'term'],
      ]),
    );
  });

  it('builds entities with mention counts, co-occurrence relations and a community per topic', async () => {
    const { index } = await buildIndex();
    const stats = index.stats();

    expect(stats).toMatchObject({ state: 'ready', pendingDocuments: 0 });
    expect(index.graph.entities.get('breaker recoveri')).toMatchObject({
      name: 'breaker recovery',
      mentionCount: 2,
    });
    expect(stats.communitiesPerLevel[0]).toBeGreaterThanOrEqual(2);
    const documentsOf = (key: string) => [...index.graph.entities.get(key)!.documents.keys()];
    const mixed = index.communities.all().filter((c) => new Set(c.members.flatMap(documentsOf)).size > 1);
    expect(mixed).toEqual([]);
    const [breakers, ledger] = ['breaker threshold', 'ledger balanc'].map((t) =>
      index.communities.communityOf(t),
    );
    expect(breakers).toBeDefined();
    expect(breakers).not.toBe(ledger);
  });

  it('updates incrementally: replacing one document re-clusters only its community', async () => {
    const { fullText, index } = await buildIndex();
    const ledgerCommunity = index.communities.communityOf('ledger balanc');
    const breakerCommunity = index.communities.communityOf('breaker threshold');
    expect([ledgerCommunity, breakerCommunity]).toEqual([expect.any(String), expect.any(String)]);

    fullText.replaceDocument('doc-breaker', topicChunks('breaker', ['threshold', 'recovery', 'trial']));
    await index.whenIdle();

    expect(index.communities.communityOf('ledger balanc')).toBe(ledgerCommunity);
    expect(index.communities.communityOf('breaker threshold')).not.toBe(breakerCommunity);
    expect(index.graph.entities.has('breaker gaug')).toBe(false);
    fullText.removeDocument('doc-breaker');
    await index.whenIdle();
    expect([...index.graph.entities.keys()].some((key) => key.startsWith('breaker'))).toBe(false);
  });

  it('searches from query entities through their neighbourhood to chunks, naming the entities', async () => {
    const { fullText, index } = await buildIndex();
    const graph = createGraphStrategy({ index, chunks: fullText, idf: (t) => fullText.idf(t) });

    const hits = await graph('how does escrow work in the ledger?', { limit: 3 });

    expect(hits[0]).toMatchObject({ source: 'docs/ledger.md', strategy: 'graph', foundBy: ['graph'] });
    expect(hits[0].entities).toEqual(expect.arrayContaining(['ledger escrow']));
    expect(hits.every((h) => h.source === 'docs/ledger.md')).toBe(true);
  });

  it('runs Louvain on a worker thread with the same result as in process', async () => {
    const input = {
      nodes: ['a', 'b', 'c', 'd', 'e', 'f'],
      edges: [
        ['a', 'b', 3],
        ['b', 'c', 3],
        ['a', 'c', 3],
        ['d', 'e', 3],
        ['e', 'f', 3],
        ['d', 'f', 3],
        ['c', 'd', 1],
      ] as Array<[string, string, number]>,
      resolution: 1,
      seed: 1,
    };
    const worker = workerLouvain();
    try {
      const mapping = await worker(input);

      expect(mapping).toEqual(await inProcessLouvain(input));
      expect(mapping.a).toBe(mapping.c);
      expect(mapping.a).not.toBe(mapping.d);
    } finally {
      await worker.close();
    }
  });

  it('partitions entities named like Object.prototype members (constructor, toString)', async () => {
    const input = {
      nodes: ['constructor', 'token', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'],
      edges: [
        ['constructor', 'token', 3],
        ['token', 'toString', 3],
        ['constructor', 'toString', 3],
        ['hasOwnProperty', '__proto__', 3],
        ['__proto__', 'valueOf', 3],
        ['hasOwnProperty', 'valueOf', 3],
        ['toString', 'valueOf', 1],
      ] as Array<[string, string, number]>,
      resolution: 1,
      seed: 1,
    };
    const worker = workerLouvain();
    try {
      const mapping = await worker(input);

      expect(mapping).toEqual(await inProcessLouvain(input));
      expect(Object.keys(mapping).sort()).toEqual([...input.nodes].sort());
      expect(mapping.constructor).toBe(mapping.toString);
      expect(mapping.constructor).not.toBe(mapping.valueOf);
    } finally {
      await worker.close();
    }
  });

  it('stops after the group in flight, leaving the queue to the next start, and takes no more', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const index = new GraphIndex({
      chunkText: () => undefined,
      sliceChunks: 2,
      extract: async (chunks) => {
        await gate;
        return chunks.map((chunk) => extractEntities(chunk));
      },
    });
    for (let n = 0; n < 20; n++)
      index.enqueue(
        `doc-${n}`,
        topicChunks(`topic${n}`, ['alpha']).map((c) => ({ ...c, documentId: `doc-${n}` })),
      );
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = index.stop();
    open();
    await stopped;
    // One group (a document of one chunk and its slice) was applied; the other 19 wait for the next start.
    expect(index.stats()).toMatchObject({ processedDocuments: 1, pendingDocuments: 19, state: 'ready' });
    index.enqueue('doc-late', topicChunks('late', ['beta']));
    expect(index.stats()).toMatchObject({ state: 'ready', pendingDocuments: 20 });
  });
});
