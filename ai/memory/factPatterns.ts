/**
 * Offline fact and entity extraction for the semantic tier: patterns over sentences, no model. A fact is `subject
 * —predicate→ object`; single-valued predicates (where one lives, works, a favourite, a name, a birthday) replace the
 * previous value, multi-valued ones (likes, owns, knows) add to it. "I", "me" and "my" are the memory's own subject,
 * the entity `me`.
 */

/** An extracted statement. `object` is a name or a literal value. */
export interface ExtractedFact {
  subject: string;
  predicate: string;
  object: string;
  /** True when a new value replaces the old one (a contradiction closes the older fact). */
  singleValued: boolean;
}

/** The entity memories use for their own subject ("I", "my"). */
export const SELF_ENTITY = 'me';

// Words of at most 40 characters, starting where a word starts: bounded backtracking on any input.
const NAME = "(?<![\\p{L}\\p{N}'’-])(?:[A-Z][\\p{L}'’-]{0,39}(?:\\s+[A-Z][\\p{L}'’-]{0,39}){0,3})";
const WHO = `(?<s>I|${NAME})`;
const WHOSE = `(?<s>[Mm]y|${NAME}(?:'s|’s))`;
const VALUE = "(?<o>[\\p{L}\\p{N}][\\p{L}\\p{N}'’ -]{0,60}?)";
const END = '(?=\\s*(?:$|[,;]|\\s(?:and|but|because|since|so|now|today|yesterday|again)\\b))';

const RULES: { pattern: RegExp; predicate: string | ((m: RegExpExecArray) => string); single: boolean }[] = [
  {
    pattern: new RegExp(
      `${WHO}\\s+(?:now\\s+)?(?:live|lives|lived|am living|is living)\\s+in\\s+${VALUE}${END}`,
      'u',
    ),
    predicate: 'lives_in',
    single: true,
  },
  {
    pattern: new RegExp(
      `${WHO}\\s+(?:just\\s+)?(?:moved|relocated|has moved|have moved)\\s+to\\s+${VALUE}${END}`,
      'u',
    ),
    predicate: 'lives_in',
    single: true,
  },
  {
    pattern: new RegExp(
      `${WHO}\\s+(?:now\\s+)?(?:work|works|worked|am working|is working)\\s+(?:at|for)\\s+${VALUE}${END}`,
      'u',
    ),
    predicate: 'works_at',
    single: true,
  },
  {
    pattern: new RegExp(`${WHO}\\s+(?:started|joined)\\s+(?:working\\s+at\\s+)?${VALUE}${END}`, 'u'),
    predicate: 'works_at',
    single: true,
  },
  {
    pattern: new RegExp(
      `${WHOSE}\\s+(?:new\\s+)?favou?rite\\s+(?<thing>[\\p{L}]+)\\s+is\\s+(?:now\\s+)?${VALUE}${END}`,
      'u',
    ),
    predicate: (m) => `favorite_${m.groups!.thing.toLowerCase()}`,
    single: true,
  },
  { pattern: new RegExp(`${WHOSE}\\s+name\\s+is\\s+${VALUE}${END}`, 'u'), predicate: 'name', single: true },
  {
    pattern: new RegExp(`${WHOSE}\\s+birthday\\s+is\\s+(?:on\\s+)?${VALUE}${END}`, 'u'),
    predicate: 'birthday',
    single: true,
  },
  {
    pattern: new RegExp(`${WHO}\\s+(?:like|likes|love|loves|enjoy|enjoys)\\s+${VALUE}${END}`, 'u'),
    predicate: 'likes',
    single: false,
  },
  {
    pattern: new RegExp(`${WHO}\\s+(?:own|owns|bought|have|has)\\s+(?:a|an)\\s+${VALUE}${END}`, 'u'),
    predicate: 'owns',
    single: false,
  },
];

/** Words that start sentences but never name anything. */
const NOT_NAMES = new Set(
  'The A An I We You He She It They This That These Those My Our Your His Her Their Today Yesterday Tomorrow Then When What Where Why How Let Lets Yes No Also And But So If Please Thanks Hello Hi After Before Now Later Maybe'.split(
    ' ',
  ),
);

function canonical(name: string): string {
  const trimmed = name
    .trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/['’]s$/, '');
  return /^(?:i|me|my)$/i.test(trimmed) ? SELF_ENTITY : trimmed;
}

/** The sentences of a text (split at . ! ? and line breaks). */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Facts stated in a text, in order. */
export function extractFacts(text: string): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  for (const sentence of sentencesOf(text)) {
    const clean = sentence.replace(/[.!?]+$/, '');
    for (const rule of RULES) {
      const match = rule.pattern.exec(clean);
      if (!match?.groups) continue;
      const object = canonical(match.groups.o);
      if (!object) continue;
      const predicate = typeof rule.predicate === 'string' ? rule.predicate : rule.predicate(match);
      facts.push({ subject: canonical(match.groups.s), predicate, object, singleValued: rule.single });
    }
  }
  return facts;
}

/** Names a text mentions: capitalised word runs (not sentence-opening function words), plus fact ends. */
export function extractEntityNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(new RegExp(NAME, 'gu'))) {
    const words = match[0].split(/\s+/).filter((word) => !NOT_NAMES.has(word.replace(/['’]s$/, '')));
    const name = canonical(words.join(' '));
    if (name.length >= 2 && name !== SELF_ENTITY) names.add(name);
  }
  for (const fact of extractFacts(text)) {
    names.add(fact.subject);
    if (/^[A-Z]/.test(fact.object)) names.add(fact.object);
  }
  return [...names];
}

/** Whether a predicate holds one value at a time (a newer value closes the older fact). */
export function isSingleValued(predicate: string): boolean {
  return (
    ['lives_in', 'works_at', 'name', 'birthday'].includes(predicate) || predicate.startsWith('favorite_')
  );
}
