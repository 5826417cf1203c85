import { type VerbParser, type VerbTable, required } from './lineWords';

const examine: VerbParser = (rest, verb) => ({ action: 'examine', target: required(rest, verb, 'thing') });
const score: VerbParser = () => ({ action: 'score' });
const tutorial: VerbParser = () => ({ action: 'tutorial' });

/**
 * Finding out: `examine|ex|x <thing>`, `help [topic]`, `recipes`, `score` (`stats`), `map`, `tutorial` (`hint`).
 */
export const INFO_VERBS: VerbTable = {
  examine,
  ex: examine,
  x: examine,
  help: (rest) => (rest ? { action: 'help', topic: rest } : { action: 'help' }),
  recipes: () => ({ action: 'recipes' }),
  score,
  stats: score,
  map: () => ({ action: 'map' }),
  tutorial,
  hint: tutorial,
};
