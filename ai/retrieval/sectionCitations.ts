import { chunkDisplayTitle, type ChunkRecord } from '../../models/corpusRecords';
import { hitFromChunk } from './chunkLookup';
import type { Hit } from './hit';

/**
 * A citation of a numbered section of another document: the document's name — an upper-case file stem
 * (`SPEC`, `RFC_GUIDE`) or a file name (`design.md`) — then section numbers: `SPEC 4.8`, `SPEC.md §3.2`,
 * `SPEC sections 1, 4.2`, `SPEC 2.5-2.8`. A match starts only where a name can (not inside a run of name
 * characters), so a long run without a match costs linear time.
 */
const CITATION =
  /(?<![\w.-])([A-Z][A-Z0-9_]{2,}|[\w-]+\.(?:md|markdown|mdx|txt))(?:\.md)?(?:\s+sections?\s+|\s*§\s*|\s+)(\d+(?:\.\d+)*(?:(?:,\s?|\s+and\s+|[-–])\d+(?:\.\d+)*)*)/g;

/** A heading's section number: `2.10 Social values` → `2.10`, `1. What the service does` → `1`. */
const SECTION_NUMBER = /^(\d+(?:\.\d+)*)\.?\s/;

/** The longest range a citation may span (`2.5-2.8` is 4 sections); longer ones are read as their two ends. */
const MAX_RANGE = 20;

/** A chunk that cites no numbered section (shared: most chunks). */
const CITES_NOTHING: readonly string[] = Object.freeze([]);

/**
 * The numbered sections a text cites, as `<stem>#<section>` keys in order of first citation (`SPEC 4.8` →
 * `SPEC#4.8`, `SPEC 2.5-2.6` → `SPEC#2.5`, `SPEC#2.6`), its own document's included.
 */
export function citedSectionKeys(text: string): readonly string[] {
  let keys: Set<string> | undefined;
  for (const match of text.matchAll(CITATION)) {
    const stem = stemOf(match[1]);
    keys ??= new Set();
    for (const number of sectionNumbers(match[2])) keys.add(`${stem}#${number}`);
  }
  return keys ? [...keys] : CITES_NOTHING;
}

/** The sections a chunk cites in what its search hit shows: its display title and its text. */
export function citedSectionsOf(
  chunk: Pick<ChunkRecord, 'title' | 'headingPath' | 'symbols' | 'text'>,
): readonly string[] {
  return citedSectionKeys(`${chunkDisplayTitle(chunk)}\n${chunk.text}`);
}

/**
 * Where each numbered section of each document is, so a chunk citing `SPEC 4.8` can be followed to the chunks
 * of SPEC's section 4.8: a link between the text that restates or relies on a section and the section itself.
 * A chunk belongs to every numbered heading of its heading path (a citation of section 4 reaches its
 * subsections' chunks too). Documents are named by their file stem (`docs/SPEC.md` → `SPEC`); several documents
 * may share one. Kept in step with the corpus through the fulltext index's change feed (`apply`), as the citation
 * authority is: a change costs the changed document's chunks.
 *
 * What each chunk cites is read once, when the chunk is indexed (`apply`), not at every search: the pattern over
 * the title and text of the first 50 candidates was 15-33 % of a v2 SIMPLE search's CPU (bench/README.md, issue
 * 37). A hit of a chunk not applied here (a stale hit, a test's own) is read at search time, as before.
 */
export class SectionCitations {
  /** `<stem>#<section>` → chunk id → its document. */
  private readonly sections = new Map<string, Map<string, string>>();
  private readonly keysOf = new Map<string, Array<[key: string, chunkId: string]>>();
  /** Chunk id → the sections its display title and text cite (CITES_NOTHING for most). */
  private readonly citesOf = new Map<string, readonly string[]>();
  /** Document id → its applied chunks' ids. */
  private readonly chunksOf = new Map<string, string[]>();

  /** Follows a document change: its chunks as they now are (none: the document was removed). */
  apply(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.forget(documentId);
    const keys: Array<[string, string]> = [];
    for (const chunk of chunks) {
      this.citesOf.set(chunk.id, citedSectionsOf(chunk));
      const stem = stemOf(chunk.source);
      for (const heading of chunk.headingPath) {
        const number = SECTION_NUMBER.exec(heading)?.[1];
        if (!number) continue;
        const key = `${stem}#${number}`;
        const members = this.sections.get(key) ?? new Map<string, string>();
        this.sections.set(key, members.set(chunk.id, documentId));
        keys.push([key, chunk.id]);
      }
    }
    if (keys.length > 0) this.keysOf.set(documentId, keys);
    if (chunks.length > 0)
      this.chunksOf.set(
        documentId,
        chunks.map((chunk) => chunk.id),
      );
  }

  /**
   * Ids of the chunks of other documents that a hit's title or text cites by document name and section number,
   * in order of citation; none when they are more than `maxTargets` (a citation of a whole part, or of many
   * sections at once, says little about any one of them).
   */
  cited(hit: Pick<Hit, 'chunkId' | 'title' | 'text' | 'documentId'>, maxTargets: number): string[] {
    const keys = this.citesOf.get(hit.chunkId) ?? citedSectionKeys(`${hit.title}\n${hit.text}`);
    if (keys.length === 0) return [];
    const found = new Set<string>();
    for (const key of keys) {
      for (const [chunkId, documentId] of this.sections.get(key) ?? []) {
        if (documentId !== hit.documentId) found.add(chunkId);
      }
      if (found.size > maxTargets) return [];
    }
    return [...found];
  }

  private forget(documentId: string): void {
    for (const [key, chunkId] of this.keysOf.get(documentId) ?? []) {
      const members = this.sections.get(key);
      members?.delete(chunkId);
      if (members?.size === 0) this.sections.delete(key);
    }
    this.keysOf.delete(documentId);
    for (const chunkId of this.chunksOf.get(documentId) ?? []) this.citesOf.delete(chunkId);
    this.chunksOf.delete(documentId);
  }
}

/** Options of `followCitations`. Defaults: the first 50 candidates are followed, at most 5 sections each. */
export interface FollowCitationsOptions {
  top: number;
  maxTargets: number;
}

export const DEFAULT_FOLLOW_CITATIONS: FollowCitationsOptions = { top: 50, maxTargets: 5 };

/**
 * Candidate pooling by citation: each of the first `top` candidates that cites sections of another document is
 * followed by the cited sections' chunks (unless they rank above it already), with its score and strategy. A
 * question worded like a README that restates the specification then also brings the specification's section,
 * which the reranker can weigh against the restatement; a section found deeper in the list moves up behind
 * the candidate citing it. The list is otherwise unchanged.
 */
export function followCitations(
  hits: readonly Hit[],
  deps: { citations: SectionCitations; chunk: (chunkId: string) => ChunkRecord | undefined },
  options: FollowCitationsOptions = DEFAULT_FOLLOW_CITATIONS,
): Hit[] {
  const placed = new Set(hits.slice(0, options.top).map((hit) => hit.chunkId));
  const out: Hit[] = [];
  const taken = new Set<string>();
  hits.forEach((hit, rank) => {
    if (taken.has(hit.chunkId)) return;
    out.push(hit);
    taken.add(hit.chunkId);
    if (rank >= options.top) return;
    for (const chunkId of deps.citations.cited(hit, options.maxTargets)) {
      const chunk = placed.has(chunkId) ? undefined : deps.chunk(chunkId);
      if (!chunk) continue;
      placed.add(chunkId);
      taken.add(chunkId);
      out.push(hitFromChunk(chunk, hit.score, hit.strategy, undefined));
    }
  });
  return out;
}

/** `docs/SPEC.md` → `SPEC`, `SPEC.md` → `SPEC`. */
function stemOf(source: string): string {
  const name = source.slice(source.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** `1, 2.9 and 3.3` → 1, 2.9, 3.3; `2.5-2.8` → 2.5, 2.6, 2.7, 2.8 (a range over the last component). */
function sectionNumbers(list: string): string[] {
  const numbers: string[] = [];
  for (const part of list.split(/,\s?|\s+and\s+/)) {
    const [from, to] = part.split(/[-–]/);
    if (to === undefined) {
      numbers.push(from);
      continue;
    }
    const a = from.split('.');
    const b = to.split('.');
    const head = a.slice(0, -1).join('.');
    const first = Number(a[a.length - 1]);
    const last = Number(b[b.length - 1]);
    if (
      a.length !== b.length ||
      head !== b.slice(0, -1).join('.') ||
      last < first ||
      last - first >= MAX_RANGE
    ) {
      numbers.push(from, to);
      continue;
    }
    for (let k = first; k <= last; k++) numbers.push(head ? `${head}.${k}` : `${k}`);
  }
  return numbers;
}
