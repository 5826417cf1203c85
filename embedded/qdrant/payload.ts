import { formatError, wrongInput } from './errors';

/** A point's payload: a JSON object. */
export type Payload = Record<string, unknown>;

/** One step of a payload key path: `a`, `a[]` (every element) or `a[2]` (one element). */
interface PathStep {
  key: string;
  index?: 'all' | number;
}

const STEP = /^([^[\]]+)(?:\[(\d*)\])?$/;
const parsedPaths = new Map<string, PathStep[]>();

/** Parses Qdrant's key syntax (`country.cities[].population`), caching the result per distinct key. */
export function parseKeyPath(path: string): PathStep[] {
  const cached = parsedPaths.get(path);
  if (cached) return cached;
  const steps = path.split('.').map((part) => {
    const match = STEP.exec(part);
    if (!match) throw formatError(`invalid payload key path \`${path}\``);
    const [, key, index] = match;
    return { key, index: index === undefined ? undefined : index === '' ? 'all' : Number(index) } as PathStep;
  });
  if (parsedPaths.size > 10_000) parsedPaths.clear();
  parsedPaths.set(path, steps);
  return steps;
}

/**
 * Every value stored at `path`, with a final array flattened one level, which is how Qdrant matches a
 * condition against an array field ("any element"). Intermediate arrays are only entered through `[]`.
 */
export function valuesAtPath(payload: unknown, path: string | PathStep[]): unknown[] {
  const steps = typeof path === 'string' ? parseKeyPath(path) : path;
  let current: unknown[] = [payload];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if (!isPlainObject(value) || !(step.key in value)) continue;
      const child = value[step.key];
      if (step.index === undefined) next.push(child);
      else if (Array.isArray(child)) {
        if (step.index === 'all') next.push(...child);
        else if (step.index < child.length) next.push(child[step.index]);
      }
    }
    current = next;
  }
  return current.flatMap((value) => (Array.isArray(value) ? value : [value]));
}

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which payload to return: Qdrant's `with_payload` (`true`, `false`, a key list, or include / exclude). */
export type PayloadSelector = boolean | string[] | { include: string[] } | { exclude: string[] };

/** Applies `with_payload` to a stored payload; `undefined` means "no payload field in the response". */
export function selectPayload(payload: Payload, selector: PayloadSelector): Payload | undefined {
  if (selector === false) return undefined;
  if (selector === true) return payload;
  if (Array.isArray(selector) || 'include' in selector) {
    const keys = Array.isArray(selector) ? selector : selector.include;
    const selected: Payload = {};
    for (const key of keys) copyPath(payload, selected, parseKeyPath(key));
    return selected;
  }
  const kept = structuredClone(payload);
  for (const key of selector.exclude) deletePath(kept, parseKeyPath(key));
  return kept;
}

function copyPath(source: Payload, target: Payload, steps: PathStep[]): void {
  const [step, ...rest] = steps;
  if (!(step.key in source)) return;
  const value = source[step.key];
  if (rest.length === 0 || step.index !== undefined) {
    target[step.key] = value;
    return;
  }
  if (!isPlainObject(value)) return;
  const child = isPlainObject(target[step.key]) ? (target[step.key] as Payload) : {};
  copyPath(value, child, rest);
  if (Object.keys(child).length > 0) target[step.key] = child;
}

function deletePath(target: Payload, steps: PathStep[]): void {
  const [step, ...rest] = steps;
  if (rest.length === 0 || step.index !== undefined) {
    delete target[step.key];
    return;
  }
  const child = target[step.key];
  if (isPlainObject(child)) deletePath(child, rest);
}

/**
 * Qdrant's set-payload: merges `update` into the payload's top level, or into the object at `key` when given
 * (creating it). Returns the new payload; the stored one is not mutated.
 */
export function mergePayload(stored: Payload, update: Payload, key?: string): Payload {
  if (key === undefined) return { ...stored, ...update };
  return replaceAtKey(stored, key, (current) => ({ ...(isPlainObject(current) ? current : {}), ...update }));
}

/** Qdrant's overwrite-payload: replaces the whole payload, or only the object at `key` when given. */
export function overwritePayload(stored: Payload, update: Payload, key?: string): Payload {
  if (key === undefined) return { ...update };
  return replaceAtKey(stored, key, () => ({ ...update }));
}

function replaceAtKey(stored: Payload, key: string, produce: (current: unknown) => Payload): Payload {
  const steps = parseKeyPath(key);
  if (steps.some((step) => step.index !== undefined)) {
    throw wrongInput(`payload key \`${key}\` must name an object, not array elements`);
  }
  const root = structuredClone(stored);
  let parent: Payload = root;
  for (const step of steps.slice(0, -1)) {
    if (!isPlainObject(parent[step.key])) parent[step.key] = {};
    parent = parent[step.key] as Payload;
  }
  const last = steps[steps.length - 1].key;
  parent[last] = produce(parent[last]);
  return root;
}
