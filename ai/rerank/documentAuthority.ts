import type { ChunkRecord } from '../../models/corpusRecords';

/** Citation authority settings. Default: a document cited by 5 others has authority 0.5. */
export interface DocumentAuthorityOptions {
  /** Citations at which authority reaches one half (authority = c / (c + halfAt)). */
  halfAt: number;
}

/**
 * A file name with an extension the corpus holds (`SPEC.md`, `ai/README.md`, `circuitBreaker.ts`): what a
 * citation of a document looks like in prose, in a markdown link or in a comment. Import specifiers without
 * an extension are not citations: counting them made utility modules (a clock, a logger) the corpus's
 * authorities and lowered bench/brainEval's figures (ai/README.md, "Measured"). A match starts only where a
 * name can (not inside a run of name characters): tried at every position, a long run without an extension
 * (minified code, base64) cost time quadratic in its length (100 ms for 8,000 characters).
 */
const FILE_NAME =
  /(?<![\w.-])[\w.-]*[\w-]\.(?:md|markdown|mdx|txt|[cm]?[jt]sx?|json|ya?ml|sol|py|go|rs)(?![\w-])/g;

/**
 * Citation authority of each document, a prior for the reranker: how many other documents name its file,
 * saturating, in [0, 1). The in-link prior of web search (Kraaij et al. 2002, "The importance of prior
 * probabilities for entry page search"), with file names for links: a document the rest of the corpus
 * cites by name (a specification, a style guide) is the one to read when several state the same fact.
 * A citation counts once per citing document; a file name several documents share (`README.md`) divides
 * its citations among them; a document citing itself does not count. Kept in step with the corpus through
 * the fulltext index's change feed (`apply`), incrementally: a change costs the changed document's text.
 */
export class DocumentAuthority {
  private readonly halfAt: number;
  private readonly nameOf = new Map<string, string>();
  private readonly citedBy = new Map<string, ReadonlySet<string>>();
  /** Per file name: documents holding that name, and documents citing it. */
  private readonly holders = new Map<string, number>();
  private readonly citations = new Map<string, number>();

  constructor(options: Partial<DocumentAuthorityOptions> = {}) {
    this.halfAt = options.halfAt ?? 5;
  }

  /** Follows a document change: its chunks as they now are (none: the document was removed). */
  apply(documentId: string, chunks: readonly ChunkRecord[]): void {
    this.forget(documentId);
    if (chunks.length === 0) return;
    const name = fileNameOf(chunks[0].source);
    const cited = new Set<string>();
    for (const chunk of chunks) {
      for (const [match] of chunk.text.matchAll(FILE_NAME)) cited.add(fileNameOf(match));
    }
    cited.delete(name);
    this.nameOf.set(documentId, name);
    this.citedBy.set(documentId, cited);
    bump(this.holders, name, 1);
    for (const cite of cited) bump(this.citations, cite, 1);
  }

  /** The document's authority in [0, 1): 0 when no other document names its file. */
  of(documentId: string): number {
    const name = this.nameOf.get(documentId);
    if (name === undefined) return 0;
    const cited = (this.citations.get(name) ?? 0) / (this.holders.get(name) ?? 1);
    return cited / (cited + this.halfAt);
  }

  private forget(documentId: string): void {
    const name = this.nameOf.get(documentId);
    if (name === undefined) return;
    bump(this.holders, name, -1);
    for (const cite of this.citedBy.get(documentId) ?? []) bump(this.citations, cite, -1);
    this.nameOf.delete(documentId);
    this.citedBy.delete(documentId);
  }
}

/** The last segment of a path or URL (`docs/SPEC.md` → `SPEC.md`). */
function fileNameOf(source: string): string {
  return source.slice(source.lastIndexOf('/') + 1);
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
