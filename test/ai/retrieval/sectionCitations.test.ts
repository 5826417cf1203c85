import { hitFromChunk } from '../../../ai/retrieval/chunkLookup';
import { citedSectionsOf, followCitations, SectionCitations } from '../../../ai/retrieval/sectionCitations';
import type { ChunkRecord } from '../../../models/corpusRecords';
import { buildChunk, buildHit } from '../factories';

const GUIDE = 'docs/GUIDE.md';
/** A numbered guide: part 2 with sections 2.1-2.3, and part 3. */
function guide(): ChunkRecord[] {
  const section = (path: string[], text: string) =>
    buildChunk({ documentId: GUIDE, source: GUIDE, title: 'Guide', headingPath: ['Guide', ...path], text });
  return [
    section(['2. Lanterns', '2.1 Oil'], 'One flask a week.'),
    section(['2. Lanterns', '2.2 Wicks'], 'Trimmed daily.'),
    section(['2. Lanterns', '2.3 Glass'], 'Cleaned at dusk.'),
    section(['3. Keys'], 'The quartermaster keeps them.'),
  ];
}

function indexed(): { citations: SectionCitations; ids: Record<string, string> } {
  const citations = new SectionCitations();
  const chunks = guide();
  citations.apply(GUIDE, chunks);
  return {
    citations,
    ids: { oil: chunks[0].id, wicks: chunks[1].id, glass: chunks[2].id, keys: chunks[3].id },
  };
}

const citing = (text: string, title = 'Notes') =>
  buildHit({ chunkId: `hit:${text}`, documentId: 'notes', source: 'notes/n.md', title, text });

describe('section citations', () => {
  it.each([
    ['See GUIDE 2.1 for the ration.', ['oil']],
    ['As GUIDE.md §3 says.', ['keys']],
    ['Per GUIDE sections 2.2 and 3.', ['wicks', 'keys']],
    ['Covers GUIDE 2.1, 2.3.', ['oil', 'glass']],
    ['Implements GUIDE 2.1-2.3.', ['oil', 'wicks', 'glass']],
  ])('follows %j to the cited sections', (text, expected) => {
    const { citations, ids } = indexed();

    expect(citations.cited(citing(text), 5)).toEqual(expected.map((name) => ids[name]));
  });

  it('reads the citation in the title too (a heading that names the section it implements)', () => {
    const { citations, ids } = indexed();

    expect(citations.cited(citing('The keep.', 'Keys (GUIDE 3)'), 5)).toEqual([ids.keys]);
  });

  it('follows nothing when the citation reaches more than maxTargets chunks, or names no known section', () => {
    const { citations } = indexed();

    expect(citations.cited(citing('All of GUIDE 2.'), 2)).toEqual([]);
    expect(citations.cited(citing('GUIDE 7.1, HTTP 404 and the guide in general.'), 5)).toEqual([]);
  });

  it("ignores a document's citations of itself, and follows the document as it changes", () => {
    const { citations, ids } = indexed();
    const ownChunk = buildHit({ documentId: GUIDE, text: 'See GUIDE 3.' });

    expect(citations.cited(ownChunk, 5)).toEqual([]);
    citations.apply(GUIDE, guide().slice(0, 3));
    expect(citations.cited(citing('See GUIDE 3.'), 5)).toEqual([]);
    expect(citations.cited(citing('See GUIDE 2.2.'), 5)).toEqual([ids.wicks]);
    citations.apply(GUIDE, []);
    expect(citations.cited(citing('See GUIDE 2.2.'), 5)).toEqual([]);
  });
});

describe('section citations read when a chunk is indexed', () => {
  const notes = (text: string, title = 'Notes') =>
    buildChunk({ documentId: 'notes', source: 'notes/n.md', title, text });

  it('follows an indexed chunk by what it cited when indexed, title included, not by reading the hit again', () => {
    const { citations, ids } = indexed();
    const [viaText, viaTitle] = [notes('See GUIDE 2.2 and GUIDE 3.'), notes('The keep.', 'Keys (GUIDE 2.1)')];
    citations.apply('notes', [viaText, viaTitle]);

    expect(citations.cited(hitFromChunk(viaText, 1, 'fulltext', undefined), 5)).toEqual([
      ids.wicks,
      ids.keys,
    ]);
    expect(citations.cited(hitFromChunk(viaTitle, 1, 'fulltext', undefined), 5)).toEqual([ids.oil]);
    // The hit's own text is not read again for an indexed chunk.
    expect(
      citations.cited({ ...hitFromChunk(viaText, 1, 'fulltext', undefined), title: '', text: '' }, 5),
    ).toEqual([ids.wicks, ids.keys]);
  });

  it("forgets a changed or removed document's chunks, and its citations then come from the hit", () => {
    const { citations, ids } = indexed();
    const before = notes('See GUIDE 2.2.');
    citations.apply('notes', [before]);
    citations.apply('notes', [notes('See GUIDE 3.')]);

    expect(
      citations.cited({ ...hitFromChunk(before, 1, 'fulltext', undefined), text: 'See GUIDE 2.3.' }, 5),
    ).toEqual([ids.glass]);
    citations.apply('notes', []);
    expect(citations.cited(hitFromChunk(notes('See GUIDE 3.'), 1, 'fulltext', undefined), 5)).toEqual([
      ids.keys,
    ]);
  });

  it('gives the same targets as reading the hit, for any citation form', () => {
    const { citations } = indexed();
    const texts = [
      'Per GUIDE sections 2.2 and 3.',
      'Implements GUIDE 2.1-2.3.',
      'All of GUIDE 2.',
      'GUIDE.md §3, GUIDE 2.1',
    ];
    const chunks = texts.map((text) => notes(text));
    citations.apply('notes', chunks);
    for (const [i, chunk] of chunks.entries()) {
      const fromIndex = citations.cited(hitFromChunk(chunk, 1, 'fulltext', undefined), 3);
      expect(fromIndex).toEqual(citations.cited(citing(texts[i]), 3));
    }
    expect(citedSectionsOf(chunks[1])).toEqual(['GUIDE#2.1', 'GUIDE#2.2', 'GUIDE#2.3']);
  });
});

describe('following citations in a candidate list', () => {
  it('puts a cited section right behind the candidate citing it, moving it up from deeper in the list', () => {
    const { citations, ids } = indexed();
    const chunks = new Map(guide().map((c) => [c.id, c]));
    const first = buildHit({ chunkId: 'first', documentId: 'a', text: 'Nothing cited.' });
    const citer = citing('See GUIDE 3.');
    const deep = buildHit({
      chunkId: ids.keys,
      documentId: GUIDE,
      source: GUIDE,
      text: 'The quartermaster keeps them.',
    });

    const followed = followCitations([first, citer, deep], { citations, chunk: (id) => chunks.get(id) });

    expect(followed.map((h) => h.chunkId)).toEqual(['first', citer.chunkId, ids.keys]);
    expect(followed[2]).toMatchObject({ source: GUIDE, score: citer.score, strategy: citer.strategy });
  });

  it('leaves a cited section that already ranks above the citer, and follows only the first `top` candidates', () => {
    const { citations, ids } = indexed();
    const chunks = new Map(guide().map((c) => [c.id, c]));
    const keys = buildHit({ chunkId: ids.keys, documentId: GUIDE, text: 'The quartermaster keeps them.' });
    const citer = citing('See GUIDE 3 and GUIDE 2.1.');
    const lookup = { citations, chunk: (id: string) => chunks.get(id) };

    expect(followCitations([keys, citer], lookup).map((h) => h.chunkId)).toEqual([
      ids.keys,
      citer.chunkId,
      ids.oil,
    ]);
    expect(followCitations([keys, citer], lookup, { top: 1, maxTargets: 5 })).toHaveLength(2);
  });
});
