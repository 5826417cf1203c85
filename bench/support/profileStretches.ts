/**
 * The longest single stretches of work on a thread, from a V8 `.cpuprofile` (node --cpu-prof; BENCH_SERVER_PROFILE
 * in ingestScale.ts and brainSearchHttp.ts). A stretch is a run of consecutive samples under the same entry point of
 * the event loop (the child of the profile's root: `processImmediate`, `listOnTimeout`, `onStreamRead`,
 * `processTicksAndRejections`...), garbage collection inside it included; an `(idle)` or `(program)` sample (the loop
 * polling or between callbacks) or a different entry point ends it. So a stretch is one macrotask, or several of the
 * same kind back to back (all the immediates of one check phase are one `processImmediate` call: the loop polls no
 * socket until it returns, so that is the unit a request waits behind). Each stretch is named by its innermost
 * project frames (time by the deepest frame under the project root outside node_modules; samples without one by
 * their leaf in brackets, e.g. `[(garbage collector)]`) and by its outermost project frames (where the task entered
 * the project's code). Lines are the transpiled code's under tsx (often 1 or 2): the function names carry the meaning.
 *
 * Run: npx tsx bench/support/profileStretches.ts <file.cpuprofile> [top=10] [over=50 ms] [from=0 s] [for=end s]
 *   [root=cwd]
 * Prints the top stretches that start in the `for` seconds from `from` seconds into the profile (`from`: skip the
 * server's start-up; `for`: e.g. the ingest's length) with their start, length and frames, then the longest one and the count and sum of those longer than
 * `over`. `from` may be `ingest`: the first sample in `writeSearchableFirst` (the first ingest request).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * One stretch: its start (µs after the profile's start), wall length (µs), sampled length (µs: each sample counts
 * for at most `SAMPLE_CAP` sampling intervals, see below) and sampled time per frame label.
 */
export interface Stretch {
  startUs: number;
  lengthUs: number;
  sampledUs: number;
  inner: Map<string, number>;
  outer: Map<string, number>;
}

/** Reconstructs the non-idle stretches of `profile`; frames under `root` (outside node_modules) are the project's. */
export function stretchesOf(profile: CpuProfile, root: string): Stretch[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const isProject = (url: string) => url.includes(root) && !url.includes('node_modules');
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url ? path.relative(root, url.replace(/^file:\/\//, '')) : '';
    return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
  };
  const labels = new Map<number, { inner: string; outer: string }>();
  const labelsOf = (id: number) => {
    let found = labels.get(id);
    if (found) return found;
    let inner: string | undefined;
    let outer: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      if (!isProject(node.callFrame.url)) continue;
      inner ??= label(node);
      outer = label(node);
    }
    const leaf = byId.get(id)!;
    found = { inner: inner ?? `[${label(leaf)}]`, outer: outer ?? `[${label(leaf)}]` };
    labels.set(id, found);
    return found;
  };
  const rootId = profile.nodes[0].id;
  const entryOf = new Map<number, number>();
  const entry = (id: number): number => {
    let found = entryOf.get(id);
    if (found === undefined) {
      found = id;
      while (parent.get(found) !== undefined && parent.get(found) !== rootId) found = parent.get(found)!;
      entryOf.set(id, found);
    }
    return found;
  };
  const named = (name: string) =>
    new Set(profile.nodes.filter((n) => n.callFrame.functionName === name).map((n) => n.id));
  const [idle, program, gc] = [named('(idle)'), named('(program)'), named('(garbage collector)')];
  const gaps = [...profile.timeDeltas].sort((a, b) => a - b);
  const cap = SAMPLE_CAP * (gaps[Math.floor(gaps.length / 2)] ?? 1000);
  const stretches: Stretch[] = [];
  let current: (Stretch & { entry: number }) | undefined;
  let time = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample stands for the interval up to the next one.
    const start = time + profile.timeDeltas[i];
    const next = profile.timeDeltas[i + 1] ?? 0;
    time = start;
    const id = profile.samples[i];
    if (idle.has(id) || program.has(id)) {
      current = undefined;
      continue;
    }
    const at = gc.has(id) ? (current?.entry ?? -1) : entry(id);
    if (current && current.entry === -1 && at !== -1) current.entry = at;
    if (!current || current.entry !== at) {
      current = { startUs: start, lengthUs: 0, sampledUs: 0, inner: new Map(), outer: new Map(), entry: at };
      stretches.push(current);
    }
    const seen = Math.min(next, cap);
    current.lengthUs += next;
    current.sampledUs += seen;
    const { inner, outer } = labelsOf(id);
    current.inner.set(inner, (current.inner.get(inner) ?? 0) + seen);
    current.outer.set(outer, (current.outer.get(outer) ?? 0) + seen);
  }
  return stretches;
}

/**
 * A sample counts for at most this many sampling intervals (the profile's median gap between samples). On a loaded
 * machine the process is sometimes not scheduled for hundreds of ms; the profiler's thread then takes no sample
 * either, and the next one carries the whole gap in its time delta, which the wall length counts as work. The sampled
 * length counts only what the thread was seen doing, so it stands for the work itself.
 */
const SAMPLE_CAP = 4;

const top = (frames: Map<string, number>, count: number) =>
  [...frames.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${(us / 1000).toFixed(0)} ms ${name}`)
    .join('; ');

function main(): void {
  const args = process.argv.slice(2);
  const [file, topArg = '10', overArg = '50', fromArg = '0', forArg = 'end', root = process.cwd()] = args;
  if (!file)
    throw new Error('usage: profileStretches.ts <file.cpuprofile> [top] [overMs] [fromS] [forS] [root]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const all = stretchesOf(profile, path.resolve(root));
  const firstIngest = all.find((s) =>
    [...s.outer.keys()].some((name) => name.startsWith('writeSearchableFirst ')),
  );
  const fromUs = fromArg === 'ingest' ? (firstIngest?.startUs ?? 0) : Number(fromArg) * 1e6;
  const toUs = forArg === 'end' ? Infinity : fromUs + Number(forArg) * 1e6;
  const stretches = all.filter((s) => s.startUs >= fromUs && s.startUs < toUs);
  const overUs = Number(overArg) * 1000;
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  const window = `${(fromUs / 1e6).toFixed(1)} s to ${toUs === Infinity ? 'the end' : `${(toUs / 1e6).toFixed(1)} s`}`;
  console.log(`${file}: ${seconds.toFixed(1)} s profiled, ${stretches.length} stretches from ${window}`);
  const ms = (us: number) => (us / 1000).toFixed(0);
  const summary = (name: string, length: (s: Stretch) => number) => {
    const sorted = [...stretches].sort((a, b) => length(b) - length(a));
    const long = sorted.filter((s) => length(s) > overUs);
    const sum = long.reduce((total, s) => total + length(s), 0);
    return {
      sorted,
      line: `${name}: longest ${ms(length(sorted[0]) || 0)} ms, ${long.length} > ${overArg} ms, sum ${ms(sum)} ms`,
    };
  };
  const sampled = summary('sampled', (s) => s.sampledUs);
  const wall = summary('wall', (s) => s.lengthUs);
  console.log('sampled ms (wall ms) at start s | innermost project frames | entered at');
  for (const s of sampled.sorted.slice(0, Number(topArg))) {
    console.log(
      `${ms(s.sampledUs).padStart(6)} (${ms(s.lengthUs)}) at ${(s.startUs / 1e6).toFixed(1)} s | ` +
        `${top(s.inner, 3)} | ${top(s.outer, 2)}`,
    );
  }
  console.log(sampled.line);
  console.log(wall.line);
}

if (require.main === module) main();
