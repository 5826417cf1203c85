import type { ContextPassage } from './contextBuilder';

const WORD = /[A-Za-z][A-Za-z0-9]*(?:[-'’][A-Za-z0-9]+)*/g;

/**
 * The names a question asks about: acronyms (two or more capitals, as NPC) and capitalised words that do not open a
 * sentence, without a possessive ("CTO's" is CTO). "I" is not a name.
 */
export function questionNames(question: string): string[] {
  const names = new Set<string>();
  for (const match of question.matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/i, '');
    let before = match.index - 1;
    while (before >= 0 && /\s/.test(question[before])) before--;
    const opensSentence = before < 0 || '.?!:;'.includes(question[before]);
    const acronym = word.length >= 2 && /^[A-Z0-9]+$/.test(word) && /[A-Z]/.test(word);
    const capitalised = /^[A-Z][a-z]/.test(word) && !opensSentence;
    if (acronym || capitalised) names.add(word);
  }
  return [...names];
}

/**
 * The question's names that no passage mentions, in its text, title or source (whole words, any case). A question
 * naming something the retrieved documents never mention is about something they do not cover, however well its
 * other words match (a question about someone's favourite colour against a test fixture's "my favourite colour is
 * blue").
 */
export function unmentionedNames(question: string, passages: readonly ContextPassage[]): string[] {
  const names = questionNames(question);
  if (names.length === 0) return [];
  const words = new Set<string>();
  for (const passage of passages) {
    for (const text of [passage.text, passage.hit.title, passage.hit.source]) {
      for (const match of text.matchAll(WORD)) {
        const word = match[0].replace(/['’]s$/i, '').toLowerCase();
        words.add(word);
        if (word.length > 3 && word.endsWith('s')) words.add(word.slice(0, -1)); // NPCs mentions NPC
      }
    }
  }
  return names.filter((name) => !words.has(name.toLowerCase()));
}
