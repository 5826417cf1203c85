import { codeSections } from '../../../ai/chunking/codeChunker';

const SOURCE = `import { a } from './a';
import { b } from './b';

/** Adds two numbers. */
export function add(x: number, y: number): number {
  return x + y;
}

export const LIMIT = 5, OTHER = 6;

// A point in space.
interface Point {
  x: number;
}

export class Counter {
  private n = 0;

  increment(): void {
    this.n++;
  }

  get value(): number {
    return this.n;
  }
}
`;

describe('codeSections', () => {
  it('cuts top-level symbols with their leading comments and 1-based lines', () => {
    const sections = codeSections(SOURCE, 'sample.ts');

    expect(sections.map((s) => [s.symbols, s.startLine])).toEqual([
      [[], 1],
      [['add'], 4],
      [['LIMIT', 'OTHER'], 9],
      [['Point'], 11],
      [['Counter'], 16],
    ]);
    expect(sections[1].text).toBe(
      '/** Adds two numbers. */\nexport function add(x: number, y: number): number {\n  return x + y;\n}',
    );
    expect(sections[3].text.startsWith('// A point in space.\ninterface Point')).toBe(true);
  });

  it('splits a class that does not fit into its members named Class.member', () => {
    const sections = codeSections(SOURCE, 'sample.ts', (text) => !text.includes('class Counter'));

    expect(sections.slice(4).map((s) => [s.symbols, s.startLine])).toEqual([
      [['Counter'], 16],
      [['Counter.n'], 17],
      [['Counter.increment'], 19],
      [['Counter.value'], 23],
    ]);
  });

  it('names test blocks and splits a large describe into its it blocks', () => {
    const test = `describe('cache', () => {\n  it('hits', () => {\n    expect(1).toBe(1);\n  });\n  it('misses', () => {});\n});\n`;

    expect(codeSections(test, 'cache.test.ts').map((s) => s.symbols)).toEqual([['describe cache']]);
    expect(codeSections(test, 'cache.test.ts', () => false).map((s) => s.symbols)).toEqual([
      ['describe cache'],
      ['describe cache › it hits'],
      ['describe cache › it misses'],
    ]);
  });

  it('still chunks code with syntax errors', () => {
    const sections = codeSections(
      'export const ok = 2;\nexport function broken() {\n  return [1, 2;\n}\n',
      'broken.ts',
    );

    expect(sections.map((s) => [s.symbols, s.startLine])).toEqual([
      [['ok'], 1],
      [['broken'], 2],
    ]);
  });
});
