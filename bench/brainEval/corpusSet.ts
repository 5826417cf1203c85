/**
 * The multi-corpus evaluation set (bench/brainEvalCorpora.ts): each corpus's documents, its questions, the fixed
 * rule that splits them into tuning and held-out halves, and how a hit or a citation is judged. Third-party
 * corpora live in bench/corpora/<name>/ (pages/ and questions.json, format in bench/README.md); the repository's
 * own set (bench/brainEval/questions.json and the unanswerable questions of answers.json) is the corpus `forge`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_PATHS } from '../brainCorpus';
import { questions as repositoryQuestions } from './evalSet';

const ROOT = join(__dirname, '..', '..');
const CORPORA = join(ROOT, 'bench', 'corpora');

/** What a question asks for: a fact, a procedure, an explanation, several facts at once, or nothing covered. */
export const QUESTION_KINDS = ['lookup', 'howto', 'conceptual', 'multipart', 'unanswerable'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** The halves of a set: tune on `tuning`, report `heldout`. */
export type Split = 'tuning' | 'heldout';

/** A file that answers a question; with `anchor`, only the lines of that file holding the anchor do. */
export interface CorpusAnswer {
  source: string;
  anchor?: string;
}

/** A question of a corpus: its answers are empty exactly when it is unanswerable. */
export interface CorpusQuestion {
  id: string;
  kind: QuestionKind;
  question: string;
  answers: CorpusAnswer[];
  split: Split;
}

/** A corpus: where its files are read from, which of them are ingested, and its questions. */
export interface EvalCorpus {
  name: string;
  /** Folder the sources are relative to. */
  root: string;
  /** Folders (or files) under `root` whose files are ingested. */
  paths: string[];
  questions: CorpusQuestion[];
}

/**
 * The fixed split rule: a question is held out when the first byte of the SHA-256 of its id is odd. It depends on
 * nothing but the id, so adding questions never moves the others between halves.
 */
export function splitOf(id: string): Split {
  return createHash('sha256').update(id).digest()[0] % 2 === 1 ? 'heldout' : 'tuning';
}

/** The names of the third-party corpora: the folders of bench/corpora holding a questions.json. */
export function thirdPartyCorpusNames(): string[] {
  return readdirSync(CORPORA, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(CORPORA, entry.name, 'questions.json')))
    .map((entry) => entry.name)
    .sort();
}

/** A third-party corpus as its questions.json states it (not validated: see corpusProblems). */
export function loadThirdPartyCorpus(name: string): EvalCorpus {
  const file = JSON.parse(readFileSync(join(CORPORA, name, 'questions.json'), 'utf8')) as {
    questions: CorpusQuestion[];
  };
  return { name, root: join(CORPORA, name, 'pages'), paths: ['.'], questions: file.questions };
}

/**
 * The repository's own set as a corpus: the labelled questions (each with its file and anchor, and the `also`
 * pairs) and the unanswerable questions of answers.json, ids prefixed `forge-` and split by the same rule.
 */
export function loadRepositoryCorpus(): EvalCorpus {
  const kindOf = {
    SIMPLE: 'lookup',
    FACTUAL: 'lookup',
    EXPLORATORY: 'conceptual',
    COMPLEX: 'multipart',
  } as const;
  const answerable = repositoryQuestions.map((q): CorpusQuestion => {
    const id = `forge-${q.id}`;
    const answers = [q, ...(q.also ?? [])].map((a) => ({ source: a.source, anchor: a.anchor }));
    return { id, kind: kindOf[q.class], question: q.question, answers, split: splitOf(id) };
  });
  const set = JSON.parse(readFileSync(join(__dirname, 'answers.json'), 'utf8')) as { unanswerable: string[] };
  const unanswerable = set.unanswerable.map((question, i): CorpusQuestion => {
    const id = `forge-u${String(i + 1).padStart(2, '0')}`;
    return { id, kind: 'unanswerable', question, answers: [], split: splitOf(id) };
  });
  return { name: 'forge', root: ROOT, paths: CORPUS_PATHS, questions: [...answerable, ...unanswerable] };
}

/** Every corpus of the evaluation: the repository's own first, then bench/corpora/* by name. */
export function loadCorpora(): EvalCorpus[] {
  return [loadRepositoryCorpus(), ...thirdPartyCorpusNames().map(loadThirdPartyCorpus)];
}

/**
 * What is wrong with a corpus's questions, one line each: duplicate or badly formed ids, an unknown kind, an
 * answerable question without answers or an unanswerable one with some, a cited file missing or not holding its
 * anchor, a split not given by splitOf.
 */
export function corpusProblems(corpus: EvalCorpus): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const q of corpus.questions) {
    const at = `${corpus.name} ${q.id}`;
    if (seen.has(q.id)) problems.push(`${at}: duplicate id`);
    seen.add(q.id);
    if (!q.id.startsWith(`${corpus.name}-`)) problems.push(`${at}: id does not start with "${corpus.name}-"`);
    if (typeof q.question !== 'string' || q.question.trim().length === 0) problems.push(`${at}: no question`);
    if (!QUESTION_KINDS.includes(q.kind)) problems.push(`${at}: unknown kind ${JSON.stringify(q.kind)}`);
    if (q.kind === 'unanswerable' && q.answers.length > 0) problems.push(`${at}: unanswerable with answers`);
    if (q.kind !== 'unanswerable' && q.answers.length === 0) problems.push(`${at}: no answers`);
    if (q.split !== splitOf(q.id)) problems.push(`${at}: split ${q.split}, the rule says ${splitOf(q.id)}`);
    for (const a of q.answers) {
      const path = join(corpus.root, a.source);
      if (!existsSync(path)) problems.push(`${at}: ${a.source} does not exist`);
      else if (a.anchor !== undefined && !readFileSync(path, 'utf8').includes(a.anchor))
        problems.push(`${at}: ${a.source} does not hold ${JSON.stringify(a.anchor)}`);
    }
  }
  return problems;
}

/** What judging needs of a hit or a citation: its source and its line range (1-based, inclusive). */
export interface JudgedPassage {
  source: string;
  start_line: number;
  end_line: number;
}

/**
 * Judges passages of one corpus against its answers: a passage is relevant when its source is an answer's file
 * and, for an answer with an anchor, the passage's lines of that file hold the anchor. Files are read once.
 */
export class PassageJudge {
  private readonly lines = new Map<string, string[]>();

  constructor(private readonly root: string) {}

  /** True when the passage answers the question. */
  relevant(passage: JudgedPassage, q: CorpusQuestion): boolean {
    return q.answers.some((a) => {
      if (a.source !== passage.source) return false;
      if (a.anchor === undefined) return true;
      const text = this.linesOf(a.source)
        .slice(Math.max(0, passage.start_line - 1), passage.end_line)
        .join('\n');
      return text.includes(a.anchor);
    });
  }

  /** Rank (from 1) of the first relevant passage among the first `depth`, or undefined. */
  firstRelevantRank(passages: readonly JudgedPassage[], q: CorpusQuestion, depth = 10): number | undefined {
    const at = passages.slice(0, depth).findIndex((p) => this.relevant(p, q));
    return at === -1 ? undefined : at + 1;
  }

  private linesOf(source: string): string[] {
    let lines = this.lines.get(source);
    if (!lines) {
      lines = readFileSync(join(this.root, source), 'utf8').split('\n');
      this.lines.set(source, lines);
    }
    return lines;
  }
}
