import type { TickSnapshot } from './crowdPlan';

/** One sample of a Prometheus text exposition: its name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    out.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return out;
}

function histogram(all: Sample[], metric: string): TickSnapshot['lag'] {
  const out = { count: 0, sum: 0, buckets: new Map<number, number>() };
  for (const { name, labels, value } of all) {
    if (name === `${metric}_count`) out.count += value;
    else if (name === `${metric}_sum`) out.sum += value;
    else if (name === `${metric}_bucket`) {
      const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
      out.buckets.set(le, (out.buckets.get(le) ?? 0) + value);
    }
  }
  return out;
}

/** The world tick histograms of several processes' `/metrics` texts, summed (what `tickSnapshot` reads in process). */
export function tickSnapshotOf(texts: string[]): TickSnapshot {
  const all = texts.flatMap(samples);
  return {
    lag: histogram(all, 'world_tick_lag_seconds'),
    duration: histogram(all, 'world_tick_duration_seconds'),
  };
}

/** Ticks counted so far per area in one process's `/metrics` text (the areas it hosts). */
export function ticksByArea(text: string): Map<string, number> {
  const byArea = new Map<string, number>();
  for (const { name, labels, value } of samples(text))
    if (name === 'world_tick_lag_seconds_count' && labels.area) byArea.set(labels.area, value);
  return byArea;
}
