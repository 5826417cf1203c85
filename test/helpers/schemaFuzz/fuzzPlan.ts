import { seededRandom } from '../../../platform/seededRandom';
import { operationsOf, requestsOf, type FuzzOperation, type FuzzRequest } from './mutations';
import type { SchemaComponents } from './schemaSamples';

/**
 * A request of the plan, with the caller (an index into the test's callers) that sends it. A mutation also
 * carries a seeded `draw` in [0, 1) so the sender can pick among the callers the operation accepted instead.
 */
export interface PlannedRequest extends FuzzRequest {
  caller: number;
  draw: number;
  operation: FuzzOperation;
}

/** How much to send and with what seed. */
export interface FuzzBudget {
  /** Kinds of caller; each sends every operation's valid request. */
  callers: number;
  /** Upper bound on the requests of the plan. */
  maxRequests: number;
  seed: number;
}

/** Fisher-Yates with the seeded generator. */
function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** Splits `total` among needs as evenly as it goes: no one gets more than it needs, leftovers go to the rest. */
function shares(needs: number[], total: number): number[] {
  const given = needs.map(() => 0);
  let left = total;
  let open = needs.map((_, i) => i).filter((i) => needs[i] > 0);
  while (left > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      const more = Math.min(each, needs[i] - given[i], left);
      given[i] += more;
      left -= more;
    }
    open = open.filter((i) => given[i] < needs[i]);
  }
  return given;
}

/**
 * The requests of one fuzz run, the same for the same document and seed: every operation's valid request from
 * every caller, then the rest of the budget shared evenly among the operations' mutations (an operation with few
 * leaves its share to the others), drawn one of each kind first so a small share still covers every kind, each
 * sent by a caller drawn at random (or, with `draw`, among those the operation let through).
 */
export function planFuzz(
  doc: Parameters<typeof operationsOf>[0] & { components?: { schemas?: SchemaComponents } },
  budget: FuzzBudget,
): PlannedRequest[] {
  const random = seededRandom(budget.seed);
  const components = doc.components?.schemas ?? {};
  const operations = operationsOf(doc);
  const left = budget.maxRequests - operations.length * budget.callers;
  if (left < operations.length)
    throw new Error(`a budget of ${budget.maxRequests} does not cover the valid requests`);
  const drawn = operations.map((operation) => {
    const [valid, ...mutations] = requestsOf(operation, components);
    const shuffledMutations = shuffled(mutations, random);
    const kinds = new Set<string>();
    const firstOfKind = shuffledMutations.filter((m) => !kinds.has(m.kind) && kinds.add(m.kind));
    const rest = shuffledMutations.filter((m) => !firstOfKind.includes(m));
    return { operation, valid, mutations: [...firstOfKind, ...rest] };
  });
  const given = shares(
    drawn.map((d) => d.mutations.length),
    left,
  );
  return drawn.flatMap(({ operation, valid, mutations }, i) => [
    ...Array.from({ length: budget.callers }, (_, caller) => ({ ...valid, caller, draw: 0, operation })),
    ...mutations.slice(0, given[i]).map((m) => {
      const draw = random();
      return { ...m, caller: Math.floor(draw * budget.callers), draw, operation };
    }),
  ]);
}
