import { markdownSections, markdownTitle } from '../../../ai/chunking/markdownChunker';

describe('markdownSections', () => {
  it('splits at headings and keeps the heading path, outermost first', () => {
    const text = [
      '# Brain',
      'Intro line.',
      '',
      '## Search',
      'Hybrid search.',
      '### Cache',
      'Two levels.',
      '## Ingest',
      'Chunks.',
    ].join('\n');

    const sections = markdownSections(text);

    expect(sections.map((s) => [s.headingPath, s.startLine, s.text])).toEqual([
      [['Brain'], 1, '# Brain\nIntro line.'],
      [['Brain', 'Search'], 4, '## Search\nHybrid search.'],
      [['Brain', 'Search', 'Cache'], 6, '### Cache\nTwo levels.'],
      [['Brain', 'Ingest'], 8, '## Ingest\nChunks.'],
    ]);
  });

  it('ignores headings inside fenced code blocks', () => {
    const text = ['## Example', '```sh', '# not a heading', '```', 'After.'].join('\n');

    expect(markdownSections(text).map((s) => s.headingPath)).toEqual([['Example']]);
  });

  it('folds a heading without a body into the next section', () => {
    const text = ['## 3. States', '', '### 3.1 Nonce', 'Issued then used.'].join('\n');

    const sections = markdownSections(text);

    expect(sections).toEqual([
      {
        text: '## 3. States\n\n### 3.1 Nonce\nIssued then used.',
        startLine: 1,
        headingPath: ['3. States', '3.1 Nonce'],
        symbols: [],
      },
    ]);
  });

  it('keeps text before the first heading as a section with an empty path', () => {
    expect(markdownSections('Preface.\n\n# Title\nBody.')[0]).toEqual({
      text: 'Preface.',
      startLine: 1,
      headingPath: [],
      symbols: [],
    });
  });
});

describe('markdownTitle', () => {
  it('returns the first level-1 heading outside code fences', () => {
    expect(markdownTitle('```\n# fake\n```\n## Sub\n# Real Title\n')).toBe('Real Title');
  });

  it('returns undefined without a level-1 heading', () => {
    expect(markdownTitle('## Only level two')).toBeUndefined();
  });
});
