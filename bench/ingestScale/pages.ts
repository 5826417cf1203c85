import { SyntheticCorpus } from '../syntheticCorpus';

/** A page of bench/ingestScale.ts as POST /brain/ingest takes it. */
export interface BenchPage {
  source: string;
  index: 'docs' | 'code' | 'tests';
  text: string;
}

/** The word only page `n` holds (letters only, so the analyzer keeps it whole): `uniq` + n in base 26. */
export function uniqueWordOf(n: number): string {
  let word = '';
  for (let v = n + 1; v > 0; v = Math.floor((v - 1) / 26))
    word = String.fromCharCode(97 + ((v - 1) % 26)) + word;
  return `uniq${word}`;
}

/**
 * Realistic Markdown pages of four sections, each one chunk of about 150-200 words: prose (Zipf words about
 * a topic, sentences and paragraphs), a TypeScript code block between prose, a table of settings, and a
 * closing section of prose with the page's unique word. Deterministic (seeded), so runs compare.
 */
export class PageFactory {
  private readonly corpus = new SyntheticCorpus();

  /** Words of prose about the page's topic, as sentences of 8-16 words. */
  private prose(words: number): string {
    const out: string[] = [];
    let sentence: string[] = [];
    for (let count = 0; count < words;) {
      const more = this.corpus.query().split(' ');
      sentence.push(...more);
      count += more.length;
      if (sentence.length >= 8 + (out.length % 9) || count >= words) {
        const [first, ...rest] = sentence;
        out.push(`${first[0].toUpperCase()}${first.slice(1)} ${rest.join(' ')}.`.replace(' .', '.'));
        sentence = [];
      }
    }
    return out.join(' ');
  }

  private code(name: string): string {
    const words = this.corpus.query().split(' ');
    const fn = words.map((w, i) => (i === 0 ? w : `${w[0].toUpperCase()}${w.slice(1)}`)).join('');
    return [
      '```ts',
      `/** ${this.prose(12)} */`,
      `export async function ${fn}(${words[0]}: ${name}Options): Promise<number> {`,
      `  const ${words[1] ?? 'value'} = await ${words[0]}.load('${words.join('-')}');`,
      `  if (!${words[1] ?? 'value'}) throw new Error('${this.prose(6)}');`,
      `  return ${words[1] ?? 'value'}.items.filter((item) => item.weight > ${words.length}).length;`,
      '}',
      '```',
    ].join('\n');
  }

  private table(): string {
    const rows = Array.from({ length: 6 }, (_, i) => {
      const [a, b] = this.corpus.query().split(' ');
      return `| \`${a}_${i}\` | ${b ?? a} | ${(i + 1) * 16} | ${this.prose(5)} |`;
    });
    return ['| Setting | Kind | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
  }

  /** Page number `n`: `bench/<index>/page<n>.md`, spread over the three indexes. */
  page(n: number): BenchPage {
    const index = (['docs', 'code', 'tests'] as const)[n % 3];
    const name = `Page${n}`;
    const text = [
      `# ${name}: ${this.corpus.query()}`,
      '',
      this.prose(80),
      '',
      '## Usage',
      '',
      this.prose(30),
      '',
      this.code(name),
      '',
      this.prose(25),
      '',
      '## Settings',
      '',
      this.prose(20),
      '',
      this.table(),
      '',
      '## Notes',
      '',
      `${this.prose(80)} The marker of this page is ${uniqueWordOf(n)}.`,
      '',
    ].join('\n');
    return { source: `bench/${index}/page${n}.md`, index, text };
  }
}
