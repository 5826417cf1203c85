import type { ChunkRecord } from '../../models/corpusRecords';
import { analyze, isStopWord } from '../text/terms';

/** An entity found in a chunk: its graph key (stemmed terms), display name, kind and count in the chunk. */
export interface ExtractedEntity {
  key: string;
  name: string;
  type: 'heading' | 'symbol' | 'code' | 'term';
  count: number;
}

/** At most this many entities a chunk (the best by kind and count); bounds the co-occurrence edges per chunk. */
export const MAX_ENTITIES_PER_CHUNK = 12;

const CODE_SPAN = /`([^`\n]{2,60})`/g;
const IDENTIFIER =
  /\b(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g;
const PHRASE_BREAK = /[.,;:!?()[\]{}<>"'|=*#/\\\n]+/;
const KIND_RANK: Record<ExtractedEntity['type'], number> = { heading: 4, symbol: 3, code: 2, term: 1 };

/** The graph key of a name: its index terms (ai/text/terms) joined, so inflections and case merge. */
export function graphKey(name: string): string {
  return analyze(name).join(' ');
}

/**
 * Finds a chunk's entities offline, without a model: its innermost heading, its code symbols (and each part
 * of `Class.member`), backticked code spans, identifiers in the text (camelCase, PascalCase, UPPER_SNAKE),
 * and key phrases found RAKE-style (Rose et al. 2010): runs of two or three content words between stop
 * words and punctuation, kept when they occur twice in the chunk or also appear in its headings. An LLM
 * extractor can replace it where one is configured. Keeps the MAX_ENTITIES_PER_CHUNK best, by kind and count.
 */
export function extractEntities(
  chunk: Pick<ChunkRecord, 'headingPath' | 'symbols' | 'text' | 'kind'>,
): ExtractedEntity[] {
  const found = new Map<string, ExtractedEntity>();
  const add = (name: string, type: ExtractedEntity['type']) => {
    const clean = name.trim();
    const key = graphKey(clean);
    if (key === '' || key.length < 3) return;
    const existing = found.get(key);
    if (existing) {
      existing.count++;
      if (KIND_RANK[type] > KIND_RANK[existing.type]) Object.assign(existing, { type, name: clean });
    } else {
      found.set(key, { key, name: clean, type, count: 1 });
    }
  };
  const heading = chunk.headingPath[chunk.headingPath.length - 1];
  if (heading) add(heading.replace(/^[\d.\s]+/, ''), 'heading');
  for (const symbol of chunk.symbols) {
    if (/^(describe|it|test) /.test(symbol)) continue;
    add(symbol, 'symbol');
    if (symbol.includes('.')) symbol.split('.').forEach((part) => add(part, 'symbol'));
  }
  for (const match of chunk.text.matchAll(CODE_SPAN)) add(match[1], 'code');
  for (const match of chunk.text.matchAll(IDENTIFIER)) add(match[0], 'symbol');
  if (chunk.kind !== 'code') {
    const phrases = keyPhrases(chunk.text);
    const headingKeys = new Set(chunk.headingPath.flatMap((h) => analyze(h)));
    for (const [phrase, count] of phrases) {
      const key = graphKey(phrase);
      if (count >= 2 || key.split(' ').some((t) => headingKeys.has(t)))
        for (let i = 0; i < count; i++) add(phrase, 'term');
    }
  }
  return [...found.values()]
    .sort((a, b) => KIND_RANK[b.type] - KIND_RANK[a.type] || b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, MAX_ENTITIES_PER_CHUNK);
}

/** RAKE-style candidate phrases of 2-3 content words, with their counts. */
function keyPhrases(text: string): Map<string, number> {
  const phrases = new Map<string, number>();
  for (const fragment of text.split(PHRASE_BREAK)) {
    let run: string[] = [];
    const flush = () => {
      if (run.length >= 2 && run.length <= 3) {
        const phrase = run.join(' ').toLowerCase();
        phrases.set(phrase, (phrases.get(phrase) ?? 0) + 1);
      }
      run = [];
    };
    for (const word of fragment.split(/\s+/)) {
      const bare = word.replace(/[^\p{L}\p{N}_-]/gu, '');
      if (bare.length < 3 || isStopWord(bare.toLowerCase()) || /^\d+$/.test(bare)) flush();
      else run.push(bare);
    }
    flush();
  }
  return phrases;
}
