import { EmbeddingChain } from '../../../ai/embeddings/embeddingChain';
import { LocalHashEmbedder } from '../../../ai/embeddings/localHashEmbedder';
import { FullTextIndex } from '../../../ai/fulltext/fullTextIndex';
import { DocumentAuthority } from '../../../ai/rerank/documentAuthority';
import { InMemoryVectorIndex } from '../../../ai/retrieval/memoryVectorIndex';
import { SectionCitations } from '../../../ai/retrieval/sectionCitations';
import { buildRetrievalSuite } from '../../../ai/router/retrievalSuite';
import { buildChunk } from '../factories';

/**
 * A short uncited note that BM25 ranks first and a longer page with the same words that twelve other notes
 * cite by file name: only the page's citation authority can put it first.
 */
function corpus(): { fullText: FullTextIndex; authority: DocumentAuthority } {
  const fullText = new FullTextIndex();
  const authority = new DocumentAuthority();
  fullText.onDocumentChange((documentId, chunks) => authority.apply(documentId, chunks));
  const add = (source: string, text: string) =>
    fullText.replaceDocument(source, [buildChunk({ documentId: source, source, text })]);
  add('notes/plain.md', 'Lantern oil ration.');
  add('docs/almanac.md', 'Lantern oil ration: one flask a week, kept by the quartermaster of the keep.');
  for (let i = 0; i < 12; i++) add(`notes/cite-${i}.md`, `Details in almanac.md, entry ${i}.`);
  return { fullText, authority };
}

const suiteOver = (fullText: FullTextIndex, authority?: (documentId: string) => number) =>
  buildRetrievalSuite({
    fullText,
    embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
    vectors: new InMemoryVectorIndex(),
    ...(authority ? { authority } : {}),
  });

/** A suite over `fullText` with the given calibration settings. */
const calibratedSuite = (
  fullText: FullTextIndex,
  settings: Pick<Parameters<typeof buildRetrievalSuite>[0], 'calibrate' | 'calibration'>,
) =>
  buildRetrievalSuite({
    fullText,
    embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
    vectors: new InMemoryVectorIndex(),
    ...settings,
  });

/** Adds (or replaces) the one-chunk page docs/bridges.md: a change to the corpus, which the calibration follows. */
const addBridges = (fullText: FullTextIndex, text: string) =>
  fullText.replaceDocument('docs/bridges.md', [
    buildChunk({ documentId: 'docs/bridges.md', source: 'docs/bridges.md', text }),
  ]);

describe('retrieval suite: citation authority', () => {
  it("hands the documents' citation authority to the offline reranker", async () => {
    const { fullText, authority } = corpus();
    const withAuthority = suiteOver(fullText, (documentId) => authority.of(documentId));
    const without = suiteOver(fullText);

    const cited = await withAuthority.router.search('lantern oil ration', { strategy: 'fulltext' });
    const plain = await without.router.search('lantern oil ration', { strategy: 'fulltext' });
    const unranked = await without.router.search('lantern oil ration', {
      strategy: 'fulltext',
      rerank: false,
    });

    expect(unranked.hits[0].source).toBe('notes/plain.md');
    expect(plain.hits[0].source).toBe('notes/plain.md');
    expect(cited.hits[0].source).toBe('docs/almanac.md');
  });
});

/** A suite over an empty full-text index whose section citations follow the index's changes. */
function citingSuite() {
  const fullText = new FullTextIndex();
  const citations = new SectionCitations();
  fullText.onDocumentChange((documentId, chunks) => citations.apply(documentId, chunks));
  const suite = buildRetrievalSuite({
    fullText,
    embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
    vectors: new InMemoryVectorIndex(),
    citations,
  });
  return { fullText, citations, suite };
}

describe('retrieval suite: section citations', () => {
  it("follows the citations of an auto route's candidates, and not a named strategy's", async () => {
    const { fullText, citations, suite } = citingSuite();
    fullText.replaceDocument('notes/oil.md', [
      buildChunk({ documentId: 'notes/oil.md', source: 'notes/oil.md', text: 'Lantern oil: see GUIDE 4.2.' }),
    ]);
    const cited = jest.spyOn(citations, 'cited');

    await suite.router.search('lantern oil', { strategy: 'fulltext' });
    expect(cited).not.toHaveBeenCalled();
    await suite.router.search('How much lantern oil does a keeper get?');
    expect(cited).toHaveBeenCalledWith(expect.objectContaining({ source: 'notes/oil.md' }), 5);
  });
});

describe('retrieval suite: section citations and the requested indexes', () => {
  it("adds a cited section only when it is in the request's indexes", async () => {
    const { fullText, suite } = citingSuite();
    fullText.replaceDocument('docs/GUIDE.md', [
      buildChunk({
        documentId: 'docs/GUIDE.md',
        source: 'docs/GUIDE.md',
        index: 'docs',
        headingPath: ['Guide', '4.2 Provisions'],
        text: 'One flask a week.',
      }),
    ]);
    fullText.replaceDocument('src/oil.ts', [
      buildChunk({
        documentId: 'src/oil.ts',
        source: 'src/oil.ts',
        index: 'code',
        text: '// Lantern oil ration (GUIDE 4.2).\nexport const LANTERN_OIL_RATION = 1;',
      }),
    ]);
    const question = 'How much lantern oil is rationed?';

    const everywhere = await suite.router.search(question);
    const codeOnly = await suite.router.search(question, { indexes: ['code'] });

    expect(everywhere.hits.map((h) => h.source)).toEqual(
      expect.arrayContaining(['src/oil.ts', 'docs/GUIDE.md']),
    );
    expect(codeOnly.hits.map((h) => h.source)).toEqual(['src/oil.ts']);
  });
});

describe('retrieval suite: the anchor and the calibration', () => {
  const question = 'How much lantern oil is rationed to the keep each week?';

  it('fuses hybrid into an auto FACTUAL route by default, and keeps a keyword lookup on fulltext', async () => {
    const { fullText } = corpus();
    const suite = suiteOver(fullText);

    expect(suite.router.plan(question).strategies).toEqual(['hyde', 'hybrid']);
    expect(suite.router.plan('lantern').strategies).toEqual(['fulltext']);
    expect(suite.calibrator).toBeUndefined();
  });

  it('with calibrate, measures the strategies on pseudo-queries of the index and weighs the routes by them', async () => {
    const { fullText } = corpus();
    const suite = calibratedSuite(fullText, { calibrate: true });
    addBridges(
      fullText,
      'The northern drawbridge opens twice every day so that merchant barges can reach the grain market.',
    );

    expect(suite.router.plan(question).reason).toContain('weights not yet calibrated');
    await suite.calibrator!.calibrate();
    suite.calibrator!.dispose();

    expect(suite.calibrator!.mrr()).toHaveProperty('fulltext');
    expect(suite.router.plan(question).reason).toContain('weights calibrated on the index');
    expect(Object.keys(suite.router.plan(question).weights ?? {})).toEqual(['hyde', 'hybrid']);
  });

  it("with calibrate 'anchor', anchors auto routes on the candidate strongest on the pseudo-queries, weights untouched", async () => {
    const { fullText } = corpus();
    const suite = calibratedSuite(fullText, {
      calibrate: 'anchor',
      calibration: { kind: 'common', minChunks: 1, dropRarest: 0 },
    });
    addBridges(
      fullText,
      'Barges wait at the river. The northern drawbridge opens twice every day so that merchant barges can reach the grain market.',
    );

    expect(suite.router.plan(question).reason).toContain('weights not yet calibrated');
    await suite.calibrator!.calibrate();
    suite.calibrator!.dispose();

    const strongest = suite.calibrator!.strongest(['hybrid', 'hyde', 'fulltext', 'semantic'])!;
    expect(strongest).toBeDefined();
    const route = suite.router.plan(question);
    expect(route.anchor).toBe(strongest);
    expect(route.reason).toContain(`anchor ${strongest} chosen on the index`);
    expect(route.weights).toBeUndefined();
  });
});

describe('retrieval suite: answer types', () => {
  it("gives the reranker's answer-type bonus, and takes it away with answerTypes false", async () => {
    const fullText = new FullTextIndex();
    const add = (source: string, text: string) =>
      fullText.replaceDocument(source, [buildChunk({ documentId: source, source, text })]);
    // Both pages hold every searched word; only the second states a duration.
    add(
      'docs/ferry.md',
      'The ferry to the lighthouse island leaves from the north pier, weather permitting.',
    );
    add('docs/crossing.md', 'The ferry to the lighthouse island takes 40 minutes from the north pier.');
    const build = (answerTypes?: boolean) =>
      buildRetrievalSuite({
        fullText,
        embeddings: new EmbeddingChain({ providers: [new LocalHashEmbedder()] }),
        vectors: new InMemoryVectorIndex(),
        ...(answerTypes === undefined ? {} : { answerTypes }),
      });
    const question = 'How long is the ferry to the lighthouse island from the north pier?';
    const hits = build(undefined).strategies.fulltext!(question, { limit: 10, snippets: false });
    const typed = await build(undefined).reranker(question, await hits, 2);
    const untyped = await build(false).reranker(question, await hits, 2);
    const score = (list: typeof typed, source: string) => list.find((h) => h.source === source)!.score;

    expect(score(typed, 'docs/crossing.md') - score(untyped, 'docs/crossing.md')).toBeCloseTo(0.15, 10);
    expect(score(typed, 'docs/ferry.md')).toBeCloseTo(score(untyped, 'docs/ferry.md'), 10);
    expect((build(false).router as unknown as { options: { typeWord?: boolean } }).options.typeWord).toBe(
      false,
    );
  });
});
