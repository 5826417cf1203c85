import { DocumentAuthority } from '../../../ai/rerank/documentAuthority';
import { buildChunk } from '../factories';

/** A document of one chunk: its id is its source. */
const documentOf = (source: string, text: string) => [buildChunk({ documentId: source, source, text })];

function authorityOver(documents: Record<string, string>, options?: { halfAt: number }): DocumentAuthority {
  const authority = new DocumentAuthority(options);
  for (const [source, text] of Object.entries(documents)) authority.apply(source, documentOf(source, text));
  return authority;
}

describe('document citation authority', () => {
  it('is c / (c + 5) for a document whose file name c other documents cite', () => {
    const authority = authorityOver({
      'docs/atlas.md': 'The atlas of every lantern.',
      'notes/one.md': 'See atlas.md for the details.',
      'notes/two.md': 'As [the atlas](../docs/atlas.md) says.',
      'src/three.ts': '// Rules from docs/atlas.md, section 2.',
    });

    expect(authority.of('docs/atlas.md')).toBeCloseTo(3 / 8);
    expect(authority.of('notes/one.md')).toBe(0);
    expect(authority.of('unknown')).toBe(0);
  });

  it('counts a citing document once, however often it cites, and never a document citing itself', () => {
    const authority = authorityOver({
      'docs/atlas.md': 'atlas.md cites atlas.md: no authority from itself.',
      'notes/one.md': 'atlas.md, atlas.md and again docs/atlas.md.',
    });

    expect(authority.of('docs/atlas.md')).toBeCloseTo(1 / 6);
  });

  it('divides the citations of a file name among the documents that share it', () => {
    const authority = authorityOver({
      'a/handbook.md': 'First handbook.',
      'b/handbook.md': 'Second handbook.',
      'notes/one.md': 'Read handbook.md.',
      'notes/two.md': 'Read handbook.md too.',
    });

    expect(authority.of('a/handbook.md')).toBeCloseTo(1 / 6);
    expect(authority.of('b/handbook.md')).toBeCloseTo(1 / 6);
  });

  it('follows changes: a re-ingested document that drops its citation, and a removed one, no longer count', () => {
    const authority = authorityOver({
      'docs/atlas.md': 'The atlas.',
      'notes/one.md': 'See atlas.md.',
      'notes/two.md': 'See atlas.md.',
    });

    authority.apply('notes/one.md', documentOf('notes/one.md', 'Nothing cited any more.'));
    expect(authority.of('docs/atlas.md')).toBeCloseTo(1 / 6);

    authority.apply('notes/two.md', []);
    expect(authority.of('docs/atlas.md')).toBe(0);

    authority.apply('docs/atlas.md', []);
    authority.apply('notes/three.md', documentOf('notes/three.md', 'See atlas.md.'));
    expect(authority.of('docs/atlas.md')).toBe(0);
  });

  it('reads citations from every chunk of a document and takes halfAt from its options', () => {
    const authority = new DocumentAuthority({ halfAt: 1 });
    authority.apply('docs/atlas.md', documentOf('docs/atlas.md', 'The atlas.'));
    authority.apply('notes/long.md', [
      buildChunk({ documentId: 'notes/long.md', source: 'notes/long.md', text: 'Nothing here.' }),
      buildChunk({
        documentId: 'notes/long.md',
        source: 'notes/long.md',
        text: 'Later: atlas.md.',
        ordinal: 1,
      }),
    ]);

    expect(authority.of('docs/atlas.md')).toBeCloseTo(1 / 2);
  });

  it('reads a long run of name characters in one pass (minified code, base64), still finding the names after it', () => {
    // Tried at every position, this run cost time quadratic in its length: 68 s for 200,000 characters, against
    // milliseconds now. The bound is a complexity guard (a synchronous test cannot time out), not a speed target.
    const started = performance.now();
    const authority = authorityOver({
      'docs/atlas.md': 'The atlas.',
      'dist/bundle.js': `${'a'.repeat(200_000)} see atlas.md`,
    });

    expect(performance.now() - started).toBeLessThan(2_000);
    expect(authority.of('docs/atlas.md')).toBeCloseTo(1 / 6);
  });
});
