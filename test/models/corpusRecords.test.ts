import { chunkDisplayTitle, embeddingTextOf, isIndexName } from '../../models/corpusRecords';
import { buildChunk } from '../ai/factories';

describe('chunk records', () => {
  it('titles a chunk by document and heading path, without repeating the H1', () => {
    expect(chunkDisplayTitle(buildChunk({ title: 'Spec', headingPath: ['Spec', '8. Limits'] }))).toBe(
      'Spec › 8. Limits',
    );
  });

  it('titles a code chunk by its symbols', () => {
    expect(chunkDisplayTitle(buildChunk({ title: 'cache.ts', symbols: ['SearchCache', 'stats'] }))).toBe(
      'cache.ts › SearchCache, stats',
    );
  });

  it('embeds a chunk with its title and source on the first line', () => {
    const chunk = buildChunk({
      title: 'Spec',
      headingPath: ['Limits'],
      source: 'docs/SPEC.md',
      text: 'Body.',
    });

    expect(embeddingTextOf(chunk)).toBe('Spec › Limits (docs/SPEC.md)\nBody.');
  });

  it('recognises index names', () => {
    expect(['docs', 'code', 'tests', 'wiki', 3].map(isIndexName)).toEqual([true, true, true, false, false]);
  });
});
