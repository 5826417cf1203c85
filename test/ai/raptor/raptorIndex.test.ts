import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { LocalSemanticEmbedder } from '../../../ai/embeddings/localSemanticEmbedder';
import { extractiveClusterSummary } from '../../../ai/raptor/clusterSummary';
import { RaptorIndex, type RaptorSink } from '../../../ai/raptor/raptorIndex';
import type { TreeUpdate } from '../../../ai/raptor/raptorNode';
import { createRaptorStrategy } from '../../../ai/raptor/raptorStrategy';
import { sphericalKMeans } from '../../../ai/raptor/sphericalKMeans';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildChunk } from '../factories';

const TOPICS: Record<string, string[]> = {
  ledger: ['balance', 'transfer', 'escrow', 'refund', 'grant', 'fee'],
  breaker: ['threshold', 'recovery', 'trial', 'gauge', 'failure', 'timeout'],
  quest: ['reward', 'objective', 'dialogue', 'journal', 'npc', 'stage'],
};

/** A document of `topic` (part 1 or 2), one chunk per word, optionally with one chunk's text changed. */
function topicDocument(topic: string, part: number, changed?: string) {
  const words = TOPICS[topic].slice((part - 1) * 3, part * 3).concat(['overview', 'history']);
  const documentId = `doc-${topic}-${part}`;
  return {
    documentId,
    chunks: words.map((word, i) =>
      buildChunk({
        documentId,
        source: `docs/${topic}-${part}.md`,
        headingPath: [`${topic} ${word}`],
        ordinal: i,
        text:
          `The ${topic} ${word} section of part ${part}. Each ${topic} keeps its ${word} in the ${topic} store. ` +
          `A ${word} change is recorded by the ${topic} service.` +
          (changed === word ? ' This paragraph was edited since the first ingest.' : ''),
      }),
    ),
  };
}

class RecordingSink implements RaptorSink {
  readonly updates: TreeUpdate[] = [];
  async sync(_tree: unknown, update: TreeUpdate): Promise<void> {
    this.updates.push({ ...update, written: [...update.written], removed: [...update.removed] });
  }
}

async function buildIndex(timing: { quietMs?: number; maxStaleMs?: number } = { quietMs: 0 }) {
  const fullText = new FullTextIndex();
  const sink = new RecordingSink();
  const index = new RaptorIndex({
    embedder: new LocalSemanticEmbedder(),
    idf: (term) => fullText.idf(term),
    sink,
    tree: { branching: 3, maxChildren: 6 },
    ...timing,
  });
  fullText.onDocumentChange((documentId, chunks) => index.enqueue(documentId, chunks));
  for (const topic of Object.keys(TOPICS)) {
    for (const part of [1, 2]) {
      const { documentId, chunks } = topicDocument(topic, part);
      fullText.replaceDocument(documentId, chunks);
    }
  }
  await index.whenIdle();
  const strategy = createRaptorStrategy({ index, chunks: fullText });
  return { fullText, index, sink, strategy, tree: index.trees.get('docs')! };
}

/** Every node's children exist and point back to it; every leaf below the top has a parent. */
function expectConsistent(tree: Awaited<ReturnType<typeof buildIndex>>['tree']): void {
  const top = tree.nodesPerLevel().length - 1;
  for (const node of tree.nodes.values()) {
    for (const child of node.children) expect(tree.nodes.get(child)?.parent).toBe(node.id);
    if (node.level < top) expect(node.parent && tree.nodes.get(node.parent)).toBeTruthy();
  }
}

describe('RAPTOR tree', () => {
  it('clusters unit vectors with spherical k-means into the groups they form', async () => {
    const v = (...xs: number[]) => Float32Array.from(xs);
    const groups = await sphericalKMeans([v(1, 0), v(0, 1), v(0.99, 0.14), v(0.14, 0.99)], 2);

    expect(groups.map((g) => g.sort())).toEqual([
      [0, 2],
      [1, 3],
    ]);
  });

  it('summarises a cluster extractively: its titles, then central sentences, bounded', () => {
    const summary = extractiveClusterSummary(
      [
        { title: 'Fees', text: 'The platform keeps a fee of 5%. Creators receive 95% of every sale.' },
        { title: 'Refunds', text: 'A refund returns the fee and the sale price. Refunds take a day.' },
      ],
      { maxChars: 120 },
    );

    expect(summary.startsWith('Fees; Refunds.')).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(120);
    expect(summary).toMatch(/fee/);
  });

  it('builds a tree over the chunks with summary levels above the leaves', async () => {
    const { index, tree } = await buildIndex();

    const levels = tree.nodesPerLevel();
    expect(levels[0]).toBe(30);
    expect(levels.length).toBeGreaterThanOrEqual(3);
    expect(levels.length).toBeLessThanOrEqual(5);
    expect(levels[1]).toBeGreaterThanOrEqual(5);
    expectConsistent(tree);
    for (const node of tree.nodes.values()) if (node.level > 0) expect(node.text.length).toBeGreaterThan(20);
    expect(index.stats()).toMatchObject({ state: 'ready', pendingDocuments: 0, nodesPerLevel: levels });
  });

  it('answers a broad query with a summary node mapped to its best chunk (collapsed tree)', async () => {
    const { strategy } = await buildIndex();

    const hits = await strategy('ledger balance transfer escrow refund grant fee', { limit: 5 });

    const summary = hits.find((hit) => (hit.level ?? 0) >= 1);
    expect(summary).toBeDefined();
    expect(summary!.source).toMatch(/^docs\/ledger-/);
    expect(summary!.snippet).toContain('<mark>');
    expect(hits.every((hit) => hit.strategy === 'raptor')).toBe(true);
  });

  it('re-summarises only the branches of a re-ingested document', async () => {
    const { fullText, index, sink, tree } = await buildIndex();
    const summaries = [...tree.nodes.values()].filter((n) => n.level > 0).length;
    const before = index.stats().summariesWritten;
    const untouched = [...tree.nodes.values()].filter((n) => n.level > 0).map((n) => [n.id, n.text]);

    const { documentId, chunks } = topicDocument('breaker', 1, 'recovery');
    fullText.replaceDocument(documentId, chunks);
    await index.whenIdle();

    const rebuilt = index.stats().summariesWritten - before;
    const update = sink.updates[sink.updates.length - 1];
    expect(update.rebuilt).toBe(false);
    expect(rebuilt).toBeGreaterThanOrEqual(1);
    expect(rebuilt).toBeLessThanOrEqual(tree.nodesPerLevel().length);
    expect(rebuilt).toBeLessThan(summaries / 2);
    const changedText = untouched.filter(([id, text]) => tree.nodes.get(id!)?.text !== text);
    expect(changedText.length).toBeLessThanOrEqual(rebuilt);
    expect(tree.nodes.has(chunks.find((c) => c.text.includes('edited'))!.id)).toBe(true);
    expectConsistent(tree);
  });

  it.each([
    ['once, after a quiet period', { quietMs: 150 }, false],
    ['in every round when summaries may not wait', { quietMs: 0, maxStaleMs: 0 }, true],
  ])('re-summarises the branches a burst of changes touched %s', async (_name, timing, repeats) => {
    const { fullText, index, sink, tree } = await buildIndex(timing);
    const from = sink.updates.length;

    // Three rounds: the first change starts one, the second comes once it is over, the third is queued meanwhile.
    const change = (topic: string, word: string) => {
      const { documentId, chunks } = topicDocument(topic, 1, word);
      fullText.replaceDocument(documentId, chunks);
    };
    change('breaker', 'recovery');
    // The first round is over when its summaries are marked stale (or, when they may not wait, written).
    while (tree.staleness().nodes === 0 && sink.updates.length === from) await sleep(5);
    change('breaker', 'trial');
    change('ledger', 'escrow');
    await index.whenIdle();

    const written = sink.updates.slice(from).flatMap((update) => update.written.map((node) => node.id));
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written).size < written.length).toBe(repeats);
    expect(index.stats().state).toBe('ready');
    expect(tree.staleness().nodes).toBe(0);
    for (const node of tree.nodes.values()) if (node.level > 0) expect(node.text.length).toBeGreaterThan(20);
    expectConsistent(tree);
  });

  it('removes a deleted document’s leaves and the branches it alone held', async () => {
    const { fullText, index, sink, tree } = await buildIndex();
    const gone = fullText.chunkIdsOf('doc-quest-2');

    fullText.removeDocument('doc-quest-2');
    await index.whenIdle();

    expect(tree.nodesPerLevel()[0]).toBe(25);
    for (const id of gone) expect(tree.nodes.has(id)).toBe(false);
    expect(tree.hasDocument('doc-quest-2')).toBe(false);
    expect(sink.updates[sink.updates.length - 1].rebuilt).toBe(false);
    for (const node of tree.nodes.values()) if (node.level > 0) expect(node.children.size).toBeGreaterThan(0);
    expectConsistent(tree);
  });

  it('reports building, then ready, then stale while a change waits', async () => {
    const index = new RaptorIndex({ embedder: new LocalSemanticEmbedder(), tree: { branching: 3 } });
    expect(index.stats()).toMatchObject({ state: 'empty', nodesPerLevel: [] });

    const { documentId, chunks } = topicDocument('ledger', 1);
    index.enqueue(documentId, chunks);
    expect(index.stats().state).toBe('building');
    await index.whenIdle();
    expect(index.stats()).toMatchObject({ state: 'ready', nodesPerLevel: [5, 2] });

    index.enqueue(documentId, []);
    expect(index.stats()).toMatchObject({ state: 'stale' });
    await index.whenIdle();
    expect(index.stats()).toMatchObject({ state: 'empty', nodesPerLevel: [] });
  });

  it('leaves a failed settle for the next change instead of retrying every quiet period', async () => {
    let calls = 0;
    let failing = false;
    const index = new RaptorIndex({
      embedder: new LocalSemanticEmbedder(),
      tree: { branching: 3, maxChildren: 6 },
      quietMs: 10,
      summarize: async (members) => {
        calls++;
        if (failing) throw new Error('summariser down');
        return extractiveClusterSummary(members);
      },
    });
    for (const topic of Object.keys(TOPICS)) {
      const { documentId, chunks } = topicDocument(topic, 1);
      index.enqueue(documentId, chunks);
    }
    await index.whenIdle();
    failing = true;
    const { documentId, chunks } = topicDocument('breaker', 1, 'recovery');
    index.enqueue(documentId, chunks);
    await index.whenIdle();
    const afterFailure = calls;
    await sleep(100);

    expect(index.trees.get('docs')!.staleness().nodes).toBeGreaterThan(0);
    expect(calls).toBe(afterFailure);
    expect(index.stats().state).toBe('stale');
  });

  it('stops after the round in flight, leaving the queue to the next start, and starts no other', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const inner = new LocalSemanticEmbedder();
    const embedder = {
      model: inner.model,
      embed: async (texts: string[]) => {
        await gate;
        return inner.embed(texts);
      },
    };
    const index = new RaptorIndex({ embedder, tree: { branching: 3 }, documentsPerRound: 1, quietMs: 0 });
    for (const [topic, part] of [
      ['ledger', 1],
      ['breaker', 1],
      ['quest', 1],
    ] as const) {
      const { documentId, chunks } = topicDocument(topic, part);
      index.enqueue(documentId, chunks);
    }
    await sleep(10);
    const stopped = index.stop();
    open();
    await stopped;
    expect(index.stats()).toMatchObject({ processedDocuments: 1, pendingDocuments: 2 });
    await index.whenIdle(); // nothing left running or waiting to settle
    const { documentId, chunks } = topicDocument('ledger', 2);
    index.enqueue(documentId, chunks);
    await sleep(20);
    expect(index.stats()).toMatchObject({ processedDocuments: 1, pendingDocuments: 3 });
  });
});
