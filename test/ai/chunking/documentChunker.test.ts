import { contentHash, documentIdFor, normaliseForHash } from '../../../ai/chunking/contentHash';
import { chunkDocument, chunkKindFor, DEFAULT_CHUNKER_OPTIONS } from '../../../ai/chunking/documentChunker';
import { validateSourceDocument } from '../../../ai/chunking/validation';
import { buildSourceDocument } from '../factories';

const chunk = (overrides: Parameters<typeof buildSourceDocument>[0], maxTokens = 512, overlapTokens = 64) =>
  chunkDocument(validateSourceDocument(buildSourceDocument(overrides)), {
    ...DEFAULT_CHUNKER_OPTIONS,
    budget: { maxTokens, overlapTokens },
  });

describe('chunkKindFor', () => {
  it.each([
    ['docs/SPEC.md', 'markdown'],
    ['https://example.org/page.md?raw=1', 'markdown'],
    ['ai/chunking/records.ts', 'code'],
    ['test/ai/cache.test.ts', 'code'],
    ['scripts/tool.mjs', 'code'],
    ['contracts/Forge.sol', 'text'],
    ['notes.txt', 'text'],
  ])('%s → %s', (source, kind) => {
    expect(chunkKindFor(source)).toBe(kind);
  });
});

describe('chunkDocument', () => {
  it('derives the title from the first H1 and ids from index, source and content', () => {
    const { document, chunks } = chunk({ text: '# Brain Guide\n\nIntro.\n\n## Search\n\nHybrid.\n' });

    expect(document.id).toBe(documentIdFor('docs', 'docs/guide.md'));
    expect(document.title).toBe('Brain Guide');
    expect(document.chunkIds).toEqual(chunks.map((c) => c.id));
    expect(chunks.map((c) => [c.ordinal, c.headingPath, c.startLine, c.endLine])).toEqual([
      [0, ['Brain Guide'], 1, 3],
      [1, ['Brain Guide', 'Search'], 5, 7],
    ]);
    expect(chunks[1].contentHash).toBe(contentHash('## Search\n\nHybrid.'));
  });

  it('keeps an unchanged chunk id when another part of the document changes', () => {
    const before = chunk({ text: '# T\n\n## A\n\nAlpha.\n\n## B\n\nBeta.\n' }).chunks;
    const after = chunk({ text: '# T\n\n## A\n\nAlpha changed.\n\n## B\n\nBeta.\n' }).chunks;

    expect(after.map((c) => c.headingPath)).toEqual([
      ['T', 'A'],
      ['T', 'B'],
    ]);
    expect(after[0].id).not.toBe(before[0].id);
    expect(after[1].id).toBe(before[1].id);
  });

  it('drops chunks whose normalised text repeats an earlier one', () => {
    const { chunks } = chunk({ source: 'notes.md', text: '## Same\n\nBody.\n\n## Same\n\nBody.   \n' });

    expect(chunks).toHaveLength(1);
  });

  it('cuts an oversized section within the budget, repeating the previous tail as overlap', () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i} talks about retrieval and ranking.`,
    );
    const { chunks } = chunk({ source: 'long.txt', text: paragraphs.join('\n\n') }, 40, 12);

    expect(chunks.every((c) => c.tokenCount <= 40)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
    const lastOfFirst = chunks[0].text.split('\n\n').pop()!;
    expect(chunks[1].text.startsWith(lastOfFirst)).toBe(true);
  });

  it('splits a single huge line by tokens', () => {
    const { chunks } = chunk(
      { source: 'one-line.txt', text: Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ') },
      50,
      10,
    );

    expect(chunks.every((c) => c.tokenCount <= 50 && c.startLine === 1)).toBe(true);
    expect(chunks.length).toBeGreaterThanOrEqual(6);
  });

  it('chunks code by symbol and merges tiny neighbours', () => {
    const text =
      'export const A = 1;\nexport const B = 2;\n\nexport function big(): string {\n' +
      '  return "x";\n'.repeat(60) +
      '}\n';
    const { chunks } = chunk({ source: 'ai/sample.ts', index: 'code', text }, 512, 64);

    expect(chunks.map((c) => [c.kind, c.symbols, c.startLine])).toEqual([
      ['code', ['A', 'B'], 1],
      ['code', ['big'], 4],
    ]);
  });
});

describe('normaliseForHash', () => {
  it('ignores CRLF, trailing spaces and extra blank lines but keeps case', () => {
    expect(normaliseForHash('A  \r\n\r\n\r\n\r\nb\t\n')).toBe('A\n\nb');
  });
});
