import type { MudAction } from './actions';
import { InvalidActionError } from '../rules/errors';

/**
 * What every verb family of the command line shares: a verb's parser (the rest of the line → one typed action) and
 * the small readings of a line they have in common.
 */
export type VerbParser = (rest: string, verb: string) => MudAction;

/** Verbs and aliases → their parser: one table per verb family, merged by `commandLine.ts`. */
export type VerbTable = Record<string, VerbParser>;

/** `"2 bread"` → `{ item: "bread", qty: 2 }`; `"all bread"` is not a quantity, the whole text is the item. */
export function itemAndQty(text: string): { item: string; qty?: number } {
  const match = /^(\d{1,3})\s+(.+)$/.exec(text);
  return match ? { item: match[2], qty: Number(match[1]) } : { item: text };
}

/** The rest of the line, or a 400 `INVALID_ACTION` telling what the verb needs. */
export function required(rest: string, verb: string, what: string): string {
  if (!rest) throw new InvalidActionError(`"${verb}" needs ${what}: try "${verb} <${what}>".`);
  return rest;
}
