import { InvalidActionError } from '../rules/errors';
import { type VerbParser, type VerbTable, itemAndQty, required } from './lineWords';

const take: VerbParser = (rest, verb) => ({ action: 'take', ...itemAndQty(required(rest, verb, 'item')) });
const equip: VerbParser = (rest, verb) => ({ action: 'equip', item: required(rest, verb, 'item') });
const use: VerbParser = (rest, verb) => ({ action: 'use', item: required(rest, verb, 'item') });
const inventory: VerbParser = () => ({ action: 'inventory' });

/**
 * Things in hand: `take|get [n] <item>`, `drop [n] <item>`, `give [n] <item> to <someone>`, `equip|wield|wear`,
 * `use|eat|drink`, `craft <recipe>`, `inventory` (`inv`, `i`).
 */
export const ITEM_VERBS: VerbTable = {
  take,
  get: take,
  drop: (rest, verb) => ({ action: 'drop', ...itemAndQty(required(rest, verb, 'item')) }),
  give: (rest, verb) => {
    const match = /^(.+?)\s+to\s+(.+)$/i.exec(required(rest, verb, 'item'));
    if (!match) throw new InvalidActionError(`Say who to give it to: "give <item> to <someone>".`);
    return { action: 'give', ...itemAndQty(match[1]), to: match[2] };
  },
  equip,
  wield: equip,
  wear: equip,
  use,
  eat: use,
  drink: use,
  craft: (rest, verb) => ({ action: 'craft', recipe: required(rest, verb, 'recipe') }),
  inventory,
  inv: inventory,
  i: inventory,
};
