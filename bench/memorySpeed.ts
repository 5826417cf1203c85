/**
 * `npx tsx bench/memorySpeed.ts [count]`: the memory service's speed on embedded stores in one process (SPEC-free
 * targets of issue 18): remember throughput (16 in flight) up to `count` memories (default 100,000) in one subject,
 * recall p50/p95 at that size, and a consolidation run over them (its duration, and the worst event-loop delay seen
 * meanwhile, sampled every 10 ms). Baseline in the same run: a bare MongoDB insert of the same documents.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openBenchMemory } from './memoryStores';

const COUNT = Number(process.argv[2] ?? 100_000);
const IN_FLIGHT = 16;
const WORDS =
  'river mill honey dragon forge sword lantern harvest market pony bakery guild copper silver tavern quest herb lake tower bridge'.split(
    ' ',
  );
const NAMES = ['Ann', 'Tom', 'Mara', 'Pip', 'Elder', 'Smaug', 'Biscuit', 'Rowan'];

function sentence(i: number): string {
  const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
  return `${NAMES[i % NAMES.length]} talked about the ${w(1)} and the ${w(2)} near the ${w(3)} on day ${i}.`;
}

async function main(): Promise<void> {
  const bench = await openBenchMemory();
  try {
    const subject = 'bot:bench';
    const start = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < COUNT) {
        const i = next++;
        await bench.memory.remember({ subject, content: sentence(i), session_id: `s${Math.floor(i / 50)}` });
        if ((i + 1) % 10_000 === 0) {
          console.log(
            `  ${i + 1} remembered, ${((i + 1) / ((Date.now() - start) / 1000)).toFixed(0)}/s so far`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    const seconds = (Date.now() - start) / 1000;
    console.log(
      `remember: ${COUNT} memories in ${seconds.toFixed(1)} s = ${(COUNT / seconds).toFixed(0)}/s (target >= 500/s)`,
    );

    // On the neural path (the default) the vectors follow remember in the background: recall is timed after them.
    const settle = Date.now();
    await bench.memory.vectorRepair.settled();
    console.log(
      `background vectors written ${((Date.now() - settle) / 1000).toFixed(1)} s after the last remember`,
    );

    const docs = await bench.memory.memories.find({ subject }).limit(2000).lean();
    const raw = bench.memory.memories.db.collection('bench_baseline');
    const baseStart = Date.now();
    let at = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (at < docs.length) await raw.insertOne({ ...docs[at++], _id: undefined } as never);
      }),
    );
    const baseRate = docs.length / ((Date.now() - baseStart) / 1000);
    console.log(
      `baseline: bare MongoDB insertOne ${baseRate.toFixed(0)}/s (remember is ${((COUNT / seconds / baseRate) * 100).toFixed(0)}% of it)`,
    );

    await bench.memory.recall({ subject, query: 'warm up' });
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = process.hrtime.bigint();
      await bench.memory.recall({
        subject,
        query: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} ${NAMES[i % NAMES.length]}`,
      });
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(
      `recall at ${COUNT}: p50 ${times[100].toFixed(1)} ms, p95 ${times[190].toFixed(1)} ms (target p95 < 50 ms)`,
    );

    bench.clock.advance(10 * 86_400_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const consolidationStart = Date.now();
    const run = await bench.consolidation.run('manual');
    const wallSeconds = (Date.now() - consolidationStart) / 1000;
    delay.disable();
    console.log(
      `consolidation over ${COUNT}: ${run.status} in ${wallSeconds.toFixed(1)} s (wall), counts ${JSON.stringify(run.counts)}, event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
    );
  } finally {
    await bench.shutdown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
