import { type VerbParser, type VerbTable, required } from './lineWords';

const attack: VerbParser = (rest, verb) => ({ action: 'attack', target: required(rest, verb, 'target') });
const consider: VerbParser = (rest, verb) => ({
  action: 'consider',
  target: required(rest, verb, 'creature'),
});

/** Fighting: `attack|kill|k <target>`, `fight <target>`, `flee`, `rest`, `consider|con <creature>`. */
export const COMBAT_VERBS: VerbTable = {
  attack,
  kill: attack,
  k: attack,
  fight: (rest, verb) => ({ action: 'fight', target: required(rest, verb, 'target') }),
  flee: () => ({ action: 'flee' }),
  rest: () => ({ action: 'rest' }),
  consider,
  con: consider,
};
