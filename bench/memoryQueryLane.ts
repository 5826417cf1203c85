/**
 * `npx tsx bench/memoryQueryLane.ts [rounds=20]`: what a recall's query embedding waits for when the sentence
 * encoder is busy with other texts (issue 36, item 5). Each round starts a batch of 64 chat lines on `embed` (the
 * session archiver's and the secret sweep's lane, and documents' on `BRAIN_LOCAL_EMBEDDER=neural`), then, 20 ms later,
 * asks a new question on `embedQuery`: its round trip, against the same question's round trip on an idle encoder.
 * Prints the resident memory once every pool has loaded the model, and the load average.
 */
import os from 'node:os';
import { SentenceEncoder } from '../ai/embeddings/sentenceEncoder';

const ROUNDS = Number(process.argv[2] ?? 20);

function percentiles(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const mb = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0);

async function main(): Promise<void> {
  console.log(`load average ${load()}; resident ${mb()} MB before the encoder`);
  const encoder = new SentenceEncoder();
  try {
    await encoder.warmUp();
    await Promise.all([encoder.embed(['a warm-up text']), encoder.embedQuery('a warm-up query')]);
    console.log(`resident ${mb()} MB with the model loaded in every pool used`);
    const idle: number[] = [];
    const busy: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      await encoder.embedQuery(`where did Ann hide the lantern (idle question ${round})?`);
      idle.push(performance.now() - t);
      const lines = Array.from(
        { length: 64 },
        (_, i) => `Round ${round}, line ${i}: Tom told me he sold the old pony near the mill on day ${i}.`,
      );
      const batch = encoder.embed(lines);
      await new Promise((resolve) => setTimeout(resolve, 20));
      t = performance.now();
      await encoder.embedQuery(`where did Ann hide the lantern (busy question ${round})?`);
      busy.push(performance.now() - t);
      await batch;
    }
    console.log(`query round trip, encoder idle: ${percentiles(idle)}`);
    console.log(`query round trip, a batch of 64 running on embed: ${percentiles(busy)}`);
    console.log(`load average ${load()}`);
  } finally {
    await encoder.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
