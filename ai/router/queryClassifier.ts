import { WORD_PATTERN } from '../text/terms';

/** The router's query classes (SPEC.md 1). */
export const QUERY_CLASSES = ['SIMPLE', 'FACTUAL', 'EXPLORATORY', 'COMPLEX'] as const;

/** One of the router's classes. */
export type QueryClass = (typeof QUERY_CLASSES)[number];

/** A class and the features that decided it, in words. */
export interface QueryClassification {
  class: QueryClass;
  reason: string;
}

const QUESTION_WORDS = new Set(['what', 'which', 'who', 'whom', 'when', 'where', 'why', 'how', 'whose']);
const AUXILIARY_START = /^(is|are|does|do|did|can|could|should|will|would|was|were|has|have)\b/i;
const COMPARATIVE =
  /\b(compare[sd]?|comparison|versus|vs\.?|differ(s|ence|ences|ent)?|contrast|trade-?offs?|better|worse|faster|slower|more than|less than|instead of|rather than|relationship between|both|whereas|while the)\b/i;
const EXPLORATORY_CUE =
  /\b(overview|explain|describe|architecture|walk me through|tell me about|summar(y|ise|ize)|in general|big picture|what (parts|pieces|components|areas|kinds|sorts)|how (is|are) .+ (organi[sz]ed|structured|laid out|built)|how does .+ work|everything about|all the ways|ways? (to|of)|landscape|topics?)\b/i;
const CODE_TOKEN = /[a-z][A-Z]|_[a-z]|\w\.\w|\(\)|[/\\]\w|^[A-Z0-9_]{3,}$|`/;
const CONJUNCTION = /\b(and|or|but|also|as well as|then)\b/gi;

const TESTS_CUE =
  /\b(tests?|tested|testing|(test|spec) (files?|suites?|cases?)|assert(s|ed|ions?)?|jest|(it|describe) blocks?)\b/i;
/** "test network" and "testnet" are chains, not tests. */
const NOT_TESTS = /\btest ?net(work)?s?\b/gi;
const CODE_CUE =
  /\b(functions?|class(es)?|methods?|constructors?|implementation|implemented|source code|code|module|exports?|exported|imports?|imported|returns?)\b/i;
/**
 * Identifiers a query names: lower camelCase (`embedQuery`), snake_case, calls (`a.b(`, `()`), file names
 * and paths with a source file type, backticks. Acronyms and product names (HTTP, NPC, MongoDB) and SPEC constants (`SIWE_REPLAY_CAP`)
 * are not counted: documentation names them as often as code does.
 */
const IDENTIFIER =
  /^[a-z][a-z0-9]*[A-Z]\w*|^[a-z0-9]+_[a-z0-9_]+$|\w\.\w+\(|\(\)|\w\.([cm]?[jt]sx?|json|ya?ml|sol|py)\b|`/;

/** Which kind of text a query most likely wants: prose (docs), code, tests, or no preference. */
export type QueryTarget = 'prose' | 'code' | 'tests' | 'any';

/**
 * The kind of text a query targets, from its surface: a mention of tests → tests; a code identifier or a word
 * about code (function, class, method, returns …) → code; other natural language of three words or more →
 * prose, since a question in plain words is most often answered by documentation; keywords → no preference.
 * The reranker gives candidates of the targeted kind a bonus (measured on bench/brainEval: paraphrased
 * questions about the spec are otherwise drowned by the many code and test chunks that share their words).
 */
export function queryTarget(query: string): QueryTarget {
  const text = query.replace(NOT_TESTS, ' ');
  if (TESTS_CUE.test(text)) return 'tests';
  if (text.split(/\s+/).some((token) => IDENTIFIER.test(token)) || CODE_CUE.test(text)) return 'code';
  return (text.match(WORD_PATTERN) ?? []).length >= 3 ? 'prose' : 'any';
}

/**
 * Classifies a query by rules over its surface (documented in ai/README.md and checked against the labelled
 * set of bench/brainEval/questions.json):
 * - SIMPLE: a keyword lookup — at most three words without a question word, or an identifier / code token
 *   (camelCase, snake_case, a path, `BRAIN_X`) in at most five words;
 * - COMPLEX: comparatives or contrasts ("difference between", "versus", "rather than"), or a question of
 *   two clauses joined by conjunctions that is longer than 14 words;
 * - EXPLORATORY: broad cues ("overview", "explain", "how does … work", "what parts …", "describe");
 * - FACTUAL: any other question (a specific fact, value or place).
 */
export function classifyQuery(query: string): QueryClassification {
  const text = query.trim();
  const words = text.match(WORD_PATTERN) ?? [];
  const lower = words.map((w) => w.toLowerCase());
  const questionWord = lower.find((w) => QUESTION_WORDS.has(w));
  const isQuestion = questionWord !== undefined || AUXILIARY_START.test(text) || text.endsWith('?');
  const codeTokens = text.split(/\s+/).filter((token) => CODE_TOKEN.test(token)).length;
  const conjunctions = (text.match(CONJUNCTION) ?? []).length;

  if (!isQuestion && words.length <= 3) {
    return { class: 'SIMPLE', reason: `${words.length} keyword(s), no question word` };
  }
  if (codeTokens > 0 && words.length <= 5) {
    return { class: 'SIMPLE', reason: `identifier or code token in a ${words.length}-word query` };
  }
  const comparative = COMPARATIVE.exec(text);
  if (comparative) {
    return { class: 'COMPLEX', reason: `comparative "${comparative[0].toLowerCase()}"` };
  }
  if (conjunctions >= 2 && words.length > 14) {
    return { class: 'COMPLEX', reason: `${conjunctions} conjunctions over ${words.length} words` };
  }
  const exploratory = EXPLORATORY_CUE.exec(text);
  if (exploratory) {
    return { class: 'EXPLORATORY', reason: `broad cue "${exploratory[0].toLowerCase()}"` };
  }
  if (!isQuestion && words.length <= 5) {
    return { class: 'SIMPLE', reason: `${words.length} keywords, no question word` };
  }
  return {
    class: 'FACTUAL',
    reason: questionWord ? `specific question ("${questionWord}")` : 'specific question',
  };
}
