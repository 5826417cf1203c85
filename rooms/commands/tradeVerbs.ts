import type { MudAction } from './actions';
import { InvalidActionError } from '../rules/errors';
import { type VerbTable, itemAndQty, required } from './lineWords';

const TRADE_USAGE =
  'try "trade list [n] <item> for <price> [hard]", "trade browse [words]", "trade mine", "trade buy <number>" or "trade cancel <number>"';

/** `trade list 2 cloth for 50`, `trade browse rope`, `trade mine`, `trade buy 2`, `trade cancel 1`. */
function tradeLine(rest: string, verb: string): MudAction {
  const [op = '', ...words] = rest.split(/\s+/).filter(Boolean);
  const tail = words.join(' ');
  if (op === 'browse') return { action: 'trade', op, ...(tail ? { query: tail } : {}) };
  if (op === 'mine') return { action: 'trade', op };
  if (op === 'buy' || op === 'cancel')
    return { action: 'trade', op, listing: required(tail, `${verb} ${op}`, 'number') };
  const listed = op === 'list' ? /^(.+?)\s+for\s+(\d{1,10})(?:\s+(soft|hard|coins?))?$/i.exec(tail) : null;
  if (!listed) throw new InvalidActionError(`"${verb} ${rest}": ${TRADE_USAGE}.`);
  const currency = listed[3]?.toLowerCase() === 'hard' ? 'hard' : 'soft';
  return { action: 'trade', op: 'list', ...itemAndQty(listed[1]), price: Number(listed[2]), currency };
}

/** Buying and selling: `buy <item> [from <npc>]`, `sell [n] <item> [to <npc>]`, `trade|market ...` at a broker. */
export const TRADE_VERBS: VerbTable = {
  buy: (rest, verb) => {
    const match = /^(.+?)\s+from\s+(.+)$/i.exec(required(rest, verb, 'item'));
    return match ? { action: 'buy', item: match[1], from: match[2] } : { action: 'buy', item: rest };
  },
  sell: (rest, verb) => {
    const match = /^(.+?)\s+to\s+(.+)$/i.exec(required(rest, verb, 'item'));
    return match
      ? { action: 'sell', ...itemAndQty(match[1]), to: match[2] }
      : { action: 'sell', ...itemAndQty(rest) };
  },
  trade: (rest, verb) => tradeLine(rest, verb),
  market: (rest, verb) => tradeLine(rest, verb),
};
