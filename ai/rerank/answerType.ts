/**
 * Answer types (predictive annotation, Prager et al. 2000): the kind of value a question asks for, read from
 * its wording, and whether a passage holds a value of that kind. "How long …" asks for a duration, "which
 * route …" for a path, "what status …" for a status code, "how many …" for a number, "at what time …" for a
 * clock time, "which setting …" for a configuration name. A passage that states no value of the kind is less
 * likely to answer, whatever words it shares with the question.
 */
export type AnswerType = 'duration' | 'number' | 'path' | 'status' | 'time' | 'setting';

/** Each type's cue; the named group `frame` is the word that names the type (not the question's topic). */
const CUES: Array<[AnswerType, RegExp]> = [
  [
    'duration',
    /\bhow (?<frame>long|soon|often)\b|\bafter how\b|\bwhat (timeout|delay|interval|lifetime|ttl)\b/i,
  ],
  ['time', /\b(at )?what (?<frame>time)\b/i],
  ['status', /\b(which|what) (http )?(?<frame>status(es)?( code)?|error code)\b/i],
  ['path', /\b(which|what) (\w+ )?(?<frame>call|route|endpoint|path|url|address)\b/i],
  ['setting', /\b(which|what) (\w+ )?(?<frame>settings?|variables?|flags?|options?)\b/i],
  [
    'number',
    /\bhow (many|much|big|large|far|close)\b|\b(what|which) (?<frame>number|range|fraction|percentage|share|size|cap|limit|maximum|minimum|rate)\b/i,
  ],
];

const VALUES: Record<AnswerType, RegExp> = {
  duration:
    /\b\d[\d_,.]*\s?(ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|days?|weeks?|months?|years?)\b|\bttl\b|(ms|seconds|ttl)\s*[=:]\s*\d/i,
  time: /\b\d{1,2}:\d{2}\b/,
  status: /\b[1-5]\d\d\b/,
  path: /(^|[\s`|(])\/[a-z][\w\-./{}]*/i,
  setting: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/,
  number: /\d/,
};

/** The answer type a question asks for, or undefined when its wording names none. */
export function answerTypeOf(question: string): AnswerType | undefined {
  return CUES.find(([, cue]) => cue.test(question))?.[0];
}

/** Whether a passage holds a value of the answer type. */
export function holdsAnswerType(text: string, type: AnswerType): boolean {
  return VALUES[type].test(text);
}

/**
 * The question without the word that names its answer type ("which *call* moves …", "how *long* …", "what
 * *range* …"): that word says what kind of value is wanted, not what the question is about, and searched as a
 * term it matches chunks about calls, lengths or ranges in general. Unchanged when no type is named.
 */
export function withoutTypeWord(question: string): string {
  for (const [, cue] of CUES) {
    const match = cue.exec(question);
    if (!match) continue;
    const frame = match.groups?.frame;
    if (!frame) return question;
    const at = match.index + match[0].lastIndexOf(frame);
    return `${question.slice(0, at)}${question.slice(at + frame.length)}`.replace(/\s{2,}/g, ' ');
  }
  return question;
}
