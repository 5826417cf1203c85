import type { Counter, Gauge } from 'prom-client';

/** The current value of a labelled counter or gauge (0 when the series does not exist yet). */
export async function metricValue(
  metric: Counter<string> | Gauge<string>,
  labels: Record<string, string>,
): Promise<number> {
  const { values } = await metric.get();
  const series = values.find((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value));
  return series?.value ?? 0;
}
