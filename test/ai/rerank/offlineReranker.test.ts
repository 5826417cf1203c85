import { createOfflineReranker } from '../../../ai/rerank/offlineReranker';
import { buildHit } from '../factories';

// A fresh reranker per call: it caches each chunk's analysis by chunk id, and these tests reuse ids.
const rerank: ReturnType<typeof createOfflineReranker> = (query, hits, limit) =>
  createOfflineReranker({ idf: () => 1 })(query, hits, limit);

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

  it('prefers documentation for a plain-language question (prose target)', async () => {
    const code = buildHit({
      chunkId: 'a',
      index: 'code',
      source: 'platform/session.ts',
      documentId: 'd1',
      text: 'session token lifetime default',
    });
    const doc = buildHit({
      chunkId: 'b',
      index: 'docs',
      source: 'docs/SPEC.md',
      documentId: 'd2',
      text: 'session token lifetime default',
    });

    const ranked = await rerank('How long is the session token lifetime by default?', [code, doc], 2);

    expect(ranked.map((h) => h.chunkId)).toEqual(['b', 'a']);
  });

  it("judges a candidate's kind by its file type before its index (a markdown file in the code index is prose)", async () => {
    const code = buildHit({
      chunkId: 'a',
      index: 'code',
      source: 'platform/session.ts',
      documentId: 'd1',
      text: 'session token lifetime default',
    });
    const doc = buildHit({
      chunkId: 'b',
      index: 'code',
      source: 'notes/sessions.md',
      documentId: 'd2',
      text: 'session token lifetime default',
    });
    const page = buildHit({
      chunkId: 'c',
      index: 'docs',
      source: 'https://example.org/sessions',
      documentId: 'd3',
      text: 'session token lifetime default',
    });

    const ranked = await rerank('How long is the session token lifetime by default?', [code, doc, page], 3);

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

  it('keeps at most the limit', async () => {
    const hits = ['a', 'b', 'c'].map((id) => buildHit({ chunkId: id, documentId: id, text: `cache ${id}` }));

    expect(await rerank('cache', hits, 2)).toHaveLength(2);
  });
});
