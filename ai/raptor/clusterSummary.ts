import { looksLikeCode, splitSentences } from '../text/sentences';
import { analyze } from '../text/terms';

/** One child of a cluster as the summariser sees it: a display title and its text (chunk or summary). */
export interface ClusterMember {
  title: string;
  text: string;
}

/** Writes a tree node's summary from its children (the offline extractive one, or an LLM's). */
export type ClusterSummarizer = (members: readonly ClusterMember[], level: number) => Promise<string>;

/** Extractive summary settings. Defaults: at most 600 characters, 4 sentences, 3 titles. */
export interface ExtractiveSummaryOptions {
  /** Inverse document frequency of an index term (the BM25 index's); 1 for every term without it. */
  idf: (term: string) => number;
  maxChars: number;
  maxSentences: number;
  maxTitles: number;
}

interface Candidate {
  member: number;
  sentence: string;
  weights: Map<string, number>;
  norm: number;
  score: number;
  code: boolean;
}

/** A text's sentences with their index terms (none empty of terms) and whether each looks like code. */
interface AnalysedSentence {
  sentence: string;
  terms: readonly string[];
  code: boolean;
}

/** Texts analysed into sentences, kept across summaries (cleared when full). */
const ANALYSED_TEXTS = 16_384;
const analysedTexts = new Map<string, readonly AnalysedSentence[]>();

/**
 * The sentences of a member's text and their terms, worked out once per text: a bulk ingest re-summarises a node
 * each time its children change (a split, a settle), and re-analysing every child's text each time was most of the
 * summariser's cost (bench/README.md, issue 37, stop 45). The result does not depend on the idf, which is applied
 * per summary.
 */
function sentencesOf(text: string): readonly AnalysedSentence[] {
  let analysed = analysedTexts.get(text);
  if (!analysed) {
    analysed = splitSentences(text)
      .map((sentence) => ({ sentence, terms: analyze(sentence), code: looksLikeCode(sentence) }))
      .filter(({ terms }) => terms.length > 0);
    if (analysedTexts.size >= ANALYSED_TEXTS) analysedTexts.clear();
    analysedTexts.set(text, analysed);
  }
  return analysed;
}

/**
 * The offline summary of a cluster: its children's distinct titles (at most `maxTitles`), then the cluster's
 * most central sentences — each sentence a tf-idf vector, scored by its cosine with the sum of the cluster's
 * sentence vectors (code-like lines count half) — picked greedily, at most one per child until every child
 * had its turn, skipping near-repeats (term Jaccard over 0.6), until `maxSentences` or `maxChars`.
 * Deterministic and cheap (linear in the cluster's terms), so a tree of thousands of nodes is summarised in
 * well under a second.
 */
export function extractiveClusterSummary(
  members: readonly ClusterMember[],
  options: Partial<ExtractiveSummaryOptions> = {},
): string {
  const { idf = () => 1, maxChars = 600, maxSentences = 4, maxTitles = 3 } = options;
  const titles = [...new Set(members.map((m) => m.title.trim()).filter(Boolean))].slice(0, maxTitles);
  const head = titles.length > 0 ? `${titles.join('; ')}.` : '';
  const candidates: Candidate[] = [];
  const total = new Map<string, number>();
  const idfOf = new Map<string, number>();
  const weigh = (term: string): number => {
    let value = idfOf.get(term);
    if (value === undefined) idfOf.set(term, (value = idf(term)));
    return value;
  };
  members.forEach((member, index) => {
    for (const { sentence, terms, code } of sentencesOf(member.text)) {
      const weights = new Map<string, number>();
      for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + weigh(term));
      let norm = 0;
      for (const [term, w] of weights) {
        norm += w * w;
        total.set(term, (total.get(term) ?? 0) + w);
      }
      candidates.push({ member: index, sentence, weights, norm: Math.sqrt(norm), score: 0, code });
    }
  });
  let totalNorm = 0;
  for (const w of total.values()) totalNorm += w * w;
  totalNorm = Math.sqrt(totalNorm) || 1;
  for (const c of candidates) {
    let product = 0;
    for (const [term, w] of c.weights) product += w * total.get(term)!;
    c.score = (product / (c.norm * totalNorm)) * (c.code ? 0.5 : 1);
  }
  candidates.sort((a, b) => b.score - a.score || a.member - b.member);

  const chosen: Candidate[] = [];
  const served = new Set<number>();
  let length = head.length;
  for (let pass = 0; pass < 2 && chosen.length < maxSentences; pass++) {
    for (const c of candidates) {
      if (chosen.length >= maxSentences) break;
      if (chosen.includes(c) || (pass === 0 && served.has(c.member))) continue;
      if (length + c.sentence.length + 1 > maxChars) continue;
      if (chosen.some((other) => jaccard(other.weights, c.weights) > 0.6)) continue;
      chosen.push(c);
      served.add(c.member);
      length += c.sentence.length + 1;
    }
  }
  return [head, ...chosen.map((c) => c.sentence)].filter(Boolean).join(' ').slice(0, maxChars);
}

function jaccard(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let shared = 0;
  for (const term of a.keys()) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared || 1);
}
