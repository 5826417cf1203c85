import { createOfflineReranker, type Reranker } from '../../../ai/rerank/offlineReranker';
import type { Hit } from '../../../ai/retrieval/hit';
import { buildHit } from '../factories';

// A fresh reranker per call: it caches each chunk's analysis by chunk id, and these tests reuse ids.
const rerank: Reranker = (query, hits, limit) => createOfflineReranker({ idf: () => 1 })(query, hits, limit);

describe('offline reranker', () => {
  it('lifts the candidate whose text covers the query over a higher-ranked one that does not', async () => {
    const miss = buildHit({
      chunkId: 'a',
      documentId: 'd1',
      text: 'Unrelated words about rooms and creatures.',
    });
    const answer = buildHit({
      chunkId: 'b',
      documentId: 'd2',
      text: 'The circuit breaker opens after five failures.',
    });

    const ranked = await rerank('when does the circuit breaker open', [miss, answer], 2);

    expect(ranked.map((h) => h.chunkId)).toEqual(['b', 'a']);
    expect(ranked[0].score).toBeGreaterThan(ranked[1].score);
  });

  it('counts a WordNet synonym of a query word at half weight', async () => {
    const plain = buildHit({ chunkId: 'a', documentId: 'd1', text: 'Nothing here matches at all.' });
    const synonym = buildHit({
      chunkId: 'b',
      documentId: 'd2',
      text: 'Records are erased after ninety days.',
    });

    const ranked = await rerank('when are records deleted', [plain, synonym], 2);

    expect(ranked[0].chunkId).toBe('b');
  });

  // Same text everywhere: only the candidate's kind (file type, then index) can order them.
  const sessionChunk = (chunkId: string, index: Hit['index'], source: string) =>
    buildHit({
      chunkId,
      index,
      source,
      documentId: `doc-${chunkId}`,
      text: 'session token lifetime default',
    });
  const question = 'How long is the session token lifetime by default?';

  it('prefers documentation for a plain-language question (prose target)', async () => {
    const code = sessionChunk('a', 'code', 'platform/session.ts');
    const doc = sessionChunk('b', 'docs', 'docs/SPEC.md');

    const ranked = await rerank(question, [code, doc], 2);

    expect(ranked.map((h) => h.chunkId)).toEqual(['b', 'a']);
  });

  it("judges a candidate's kind by its file type before its index (a markdown file in the code index is prose)", async () => {
    const code = sessionChunk('a', 'code', 'platform/session.ts');
    const doc = sessionChunk('b', 'code', 'notes/sessions.md');
    const page = sessionChunk('c', 'docs', 'https://example.org/sessions');

    const ranked = await rerank(question, [code, doc, page], 3);

    expect(ranked[2].chunkId).toBe('a');
  });

  it('diversifies: a near-duplicate chunk of the same document yields to another document (MMR)', async () => {
    const text = 'The cache key is the sha256 of the normalised query and parameters.';
    const first = buildHit({ chunkId: 'a', documentId: 'd1', text });
    const duplicate = buildHit({ chunkId: 'b', documentId: 'd1', text: `${text} Again.` });
    const other = buildHit({ chunkId: 'c', documentId: 'd2', text: 'The cache key hashes the query.' });

    const ranked = await rerank('cache key query', [first, duplicate, other], 3);

    expect(ranked.map((h) => h.chunkId)).toEqual(['a', 'c', 'b']);
  });

  it('reads the rank prior from `ranks` when given, instead of the position', async () => {
    const first = buildHit({ chunkId: 'a', documentId: 'd1', text: 'The cache key hashes the query.' });
    const second = buildHit({ chunkId: 'b', documentId: 'd2', text: 'The cache key hashes the query.' });
    const reranker = createOfflineReranker({ idf: () => 1 });

    const byPosition = await reranker('cache key', [first, second], 2);
    const byRanks = await createOfflineReranker({ idf: () => 1 })('cache key', [first, second], 2, [2, 1]);

    expect(byPosition.map((h) => h.chunkId)).toEqual(['a', 'b']);
    expect(byRanks.map((h) => h.chunkId)).toEqual(['b', 'a']);
    expect(byRanks[0].score).toBeCloseTo(byPosition[0].score);
  });

  it('keeps at most the limit', async () => {
    const hits = ['a', 'b', 'c'].map((id) => buildHit({ chunkId: id, documentId: id, text: `cache ${id}` }));

    expect(await rerank('cache', hits, 2)).toHaveLength(2);
  });
});

describe('offline reranker: citation authority', () => {
  // Same text and kind: only the prior rank and the documents' authority can order them.
  const twin = (chunkId: string) =>
    buildHit({
      chunkId,
      documentId: `doc-${chunkId}`,
      source: `notes/${chunkId}.md`,
      text: 'lantern oil ration',
    });

  it('lifts a candidate of a much-cited document over a higher-ranked one of an uncited document', async () => {
    const authority = (documentId: string) => (documentId === 'doc-b' ? 0.8 : 0);
    const rerank = createOfflineReranker({ idf: () => 1, authority });

    const ranked = await rerank('lantern oil ration', [twin('a'), twin('b')], 2);

    expect(ranked.map((h) => h.chunkId)).toEqual(['b', 'a']);
  });

  it('keeps the prior order without an authority, or with its weight at 0', async () => {
    const authority = (documentId: string) => (documentId === 'doc-b' ? 0.8 : 0);
    const plain = createOfflineReranker({ idf: () => 1 });
    const weightless = createOfflineReranker({ idf: () => 1, authority }, { authority: 0 });

    expect((await plain('lantern oil ration', [twin('a'), twin('b')], 2))[0].chunkId).toBe('a');
    expect((await weightless('lantern oil ration', [twin('a'), twin('b')], 2))[0].chunkId).toBe('a');
  });
});

describe('offline reranker: answer type', () => {
  // Same words and kind: only whether the text states a value of the asked-for kind can lift the second.
  const vague = buildHit({
    chunkId: 'a',
    documentId: 'doc-a',
    source: 'notes/a.md',
    text: 'The lantern oil ration lasts a while.',
  });
  const valued = buildHit({
    chunkId: 'b',
    documentId: 'doc-b',
    source: 'notes/b.md',
    text: 'The lantern oil ration lasts 90 s.',
  });

  it('lifts a candidate stating a duration for a "how long" question over a higher-ranked one that states none', async () => {
    const rerank = createOfflineReranker({ idf: () => 1 });

    const ranked = await rerank('How long does the lantern oil ration last?', [vague, valued], 2);

    expect(ranked.map((h) => h.chunkId)).toEqual(['b', 'a']);
  });

  it('keeps the prior order when the question asks for no kind of value, or with the weight at 0', async () => {
    const plain = createOfflineReranker({ idf: () => 1 });
    const weightless = createOfflineReranker({ idf: () => 1 }, { answerType: 0 });

    expect((await plain('Tell me about the lantern oil ration', [vague, valued], 2))[0].chunkId).toBe('a');
    expect(
      (await weightless('How long does the lantern oil ration last?', [vague, valued], 2))[0].chunkId,
    ).toBe('a');
  });
});
